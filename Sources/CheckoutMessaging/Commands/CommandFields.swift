import JSONReading

/// One JSON object of a command body, read field by field with the contract's failure codes.
///
/// A failure names the field by its path (`items[1].quantity`) and what is wrong with it, never
/// its value: `missing-field` for an absent or null field, `wrong-type` for any other JSON type
/// than the one asked for, or for a number that is not an integer in range.
struct CommandFields {
    private let fields: [String: JSONValue]
    /// Where this object is in the body: empty for the body itself.
    private let path: String

    /// The body itself, which must be an object.
    init(body: JSONValue) throws(MalformedCommand) {
        guard case .object(let fields) = body else {
            throw MalformedCommand(.wrongType, "the body must be an object")
        }
        self.init(fields, path: "")
    }

    private init(_ fields: [String: JSONValue], path: String) {
        self.fields = fields
        self.path = path
    }

    func string(_ key: String) throws(MalformedCommand) -> String {
        guard case .string(let string) = try value(key) else {
            throw wrongType(key, "a string")
        }
        return string
    }

    func integer<Integer: FixedWidthInteger>(_ key: String, as type: Integer.Type = Int.self) throws(MalformedCommand) -> Integer {
        guard case .number(let text) = try value(key) else {
            throw wrongType(key, "an integer")
        }
        if let integer = Self.exactInteger(text, as: Integer.self) {
            return integer
        }
        throw MalformedCommand(.wrongType, "\(self.path(key)) is not a number in range")
    }

    /// The integer a JSON number names exactly, read from its decimal text: `1e2`, `2.0` and `150e-1`
    /// are integers, as JSONDecoder reads them; `2.5`, `1e400` and `1.9999999999999999` (which a
    /// `Double` would round to 2) are not.
    static func exactInteger<Integer: FixedWidthInteger>(_ text: String, as type: Integer.Type) -> Integer? {
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

    func object(_ key: String) throws(MalformedCommand) -> CommandFields {
        guard case .object(let fields) = try value(key) else {
            throw wrongType(key, "an object")
        }
        return CommandFields(fields, path: path(key))
    }

    /// Each element of an array of objects, read by `element`.
    func objects<Element>(
        _ key: String, _ element: (CommandFields) throws(MalformedCommand) -> Element
    ) throws(MalformedCommand) -> [Element] {
        guard case .array(let values) = try value(key) else {
            throw wrongType(key, "an array")
        }
        var elements: [Element] = []
        elements.reserveCapacity(values.count)
        for (index, value) in values.enumerated() {
            let elementPath = "\(path(key))[\(index)]"
            switch value {
            case .object(let fields): elements.append(try element(CommandFields(fields, path: elementPath)))
            case .null: throw MalformedCommand(.missingField, "\(elementPath) is null")
            default: throw MalformedCommand(.wrongType, "\(elementPath) must be an object")
            }
        }
        return elements
    }

    private func value(_ key: String) throws(MalformedCommand) -> JSONValue {
        switch fields[key] {
        case nil: throw MalformedCommand(.missingField, "\(path(key)) is missing")
        case .null: throw MalformedCommand(.missingField, "\(path(key)) is null")
        case let value?: return value
        }
    }

    private func wrongType(_ key: String, _ expected: String) -> MalformedCommand {
        MalformedCommand(.wrongType, "\(path(key)) must be \(expected)")
    }

    private func path(_ key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }
}
