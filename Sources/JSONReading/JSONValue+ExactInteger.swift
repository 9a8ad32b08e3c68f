extension JSONValue {
    /// The integer a number names exactly, read from its decimal text: `1e2`, `2.0` and `150e-1` are
    /// integers, as JSONDecoder reads them; `2.5`, `1e400` and `1.9999999999999999` (which a `Double`
    /// would round to 2) are not, nor is anything but a number.
    public func exactInteger<Integer: FixedWidthInteger>(as type: Integer.Type = Integer.self) -> Integer? {
        guard case .number(let text) = self else { return nil }
        if let integer = Integer(text) { return integer }
        var mantissa = Substring(text)
        var exponent = 0
        if let e = mantissa.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            // Past the text's own length (and the 40 digits no integer type exceeds) an exponent only says
            // "too large" or "a fraction": clamped there, it leaves no arithmetic below that can overflow.
            let bound = text.utf8.count + 40
            let written = mantissa[mantissa.index(after: e)...]
            exponent = Int(written).map { min(max($0, -bound), bound) } ?? (written.hasPrefix("-") ? -bound : bound)
            mantissa = mantissa[..<e]
        }
        let sign = mantissa.hasPrefix("-") ? "-" : ""
        if let dot = mantissa.firstIndex(of: ".") {
            exponent -= mantissa.distance(from: dot, to: mantissa.endIndex) - 1
        }
        let digits = mantissa.filter(\.isNumber).drop { $0 == "0" }
        guard !digits.isEmpty else { return 0 }
        guard exponent >= 0 else {
            // The first digit is not 0, so a fraction of zeros ends before it.
            guard digits.suffix(-exponent).allSatisfy({ $0 == "0" }) else { return nil }
            return Integer(sign + digits.dropLast(-exponent))
        }
        // Past 40 digits no integer type fits: the bound keeps `1e999999` from writing a million zeros.
        guard digits.count + exponent <= 40 else { return nil }
        return Integer(sign + digits + String(repeating: "0", count: exponent))
    }
}
