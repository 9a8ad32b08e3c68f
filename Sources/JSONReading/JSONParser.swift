/// Parses JSON text (RFC 8259, strictly) into a ``JSONValue``.
///
/// Command bodies and the cart lines the store keeps are read with it instead of `JSONDecoder`, whose
/// `Codable` containers cost 8 % of a worker's CPU per command. Of repeated keys the first wins, as
/// with `JSONDecoder`. Nesting is limited, so that a hostile body cannot exhaust the stack. The text
/// is taken to be UTF-8, as callers check first: an invalid sequence in a string reads as U+FFFD.
public struct JSONParser {
    /// The text is not JSON: where it stopped making sense.
    public struct Failure: Error, CustomStringConvertible {
        public let offset: Int

        public var description: String { "not JSON at byte \(offset)" }
    }

    /// Arrays and objects nested deeper than this are refused: each level is a call of the parser's.
    public static let maximumDepth = 512

    private let bytes: [UInt8]
    private var offset = 0
    private var depth = 0

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// One JSON value with nothing but whitespace around it.
    public static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONValue {
        var parser = JSONParser(bytes)
        parser.skipWhitespace()
        let value = try parser.value()
        parser.skipWhitespace()
        guard parser.offset == bytes.count else { throw parser.failure }
        return value
    }

    private var failure: Failure { Failure(offset: offset) }

    private var current: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
            offset += 1
        }
    }

    private mutating func value() throws(Failure) -> JSONValue {
        guard let byte = current else { throw failure }
        switch byte {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw failure
        }
    }

    private mutating func object() throws(Failure) -> JSONValue {
        try enterNesting()
        offset += 1
        var fields: [String: JSONValue] = [:]
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            offset += 1
            depth -= 1
            return .object(fields)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw failure }
            let key = try string()
            skipWhitespace()
            try expect(UInt8(ascii: ":"))
            skipWhitespace()
            let value = try value()
            if fields[key] == nil { fields[key] = value }
            skipWhitespace()
            if current == UInt8(ascii: ",") {
                offset += 1
                continue
            }
            try expect(UInt8(ascii: "}"))
            depth -= 1
            return .object(fields)
        }
    }

    private mutating func array() throws(Failure) -> JSONValue {
        try enterNesting()
        offset += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            offset += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try value())
            skipWhitespace()
            if current == UInt8(ascii: ",") {
                offset += 1
                continue
            }
            try expect(UInt8(ascii: "]"))
            depth -= 1
            return .array(elements)
        }
    }

    private mutating func enterNesting() throws(Failure) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw failure }
    }

    /// A quoted string; runs without escapes are taken as they are.
    private mutating func string() throws(Failure) -> String {
        offset += 1
        var text = ""
        var runStart = offset
        while true {
            guard let byte = current else { throw failure }
            switch byte {
            case UInt8(ascii: "\""):
                text += String(decoding: bytes[runStart..<offset], as: UTF8.self)
                offset += 1
                return text
            case UInt8(ascii: "\\"):
                text += String(decoding: bytes[runStart..<offset], as: UTF8.self)
                offset += 1
                text.unicodeScalars.append(try escape())
                runStart = offset
            case 0x00..<0x20:
                throw failure
            default:
                offset += 1
            }
        }
    }

    /// The character after a backslash, `\u` escapes and their surrogate pairs included.
    private mutating func escape() throws(Failure) -> Unicode.Scalar {
        guard let byte = current else { throw failure }
        offset += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let unit = try hexUnit()
            switch unit {
            case 0xD800..<0xDC00:
                guard current == UInt8(ascii: "\\") else { throw failure }
                offset += 1
                guard current == UInt8(ascii: "u") else { throw failure }
                offset += 1
                let low = try hexUnit()
                guard (0xDC00..<0xE000).contains(low),
                    let scalar = Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
                else { throw failure }
                return scalar
            case 0xDC00..<0xE000:
                throw failure
            default:
                guard let scalar = Unicode.Scalar(unit) else { throw failure }
                return scalar
            }
        default:
            throw failure
        }
    }

    private mutating func hexUnit() throws(Failure) -> UInt32 {
        var unit: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current else { throw failure }
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure
            }
            unit = unit << 4 | UInt32(digit)
            offset += 1
        }
        return unit
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, as its text.
    private mutating func number() throws(Failure) -> String {
        let start = offset
        if current == UInt8(ascii: "-") { offset += 1 }
        if current == UInt8(ascii: "0") {
            offset += 1
        } else {
            try digits()
        }
        if current == UInt8(ascii: ".") {
            offset += 1
            try digits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            offset += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { offset += 1 }
            try digits()
        }
        return String(decoding: bytes[start..<offset], as: UTF8.self)
    }

    /// One or more decimal digits.
    private mutating func digits() throws(Failure) {
        let start = offset
        while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
            offset += 1
        }
        guard offset > start else { throw failure }
    }

    private mutating func literal(_ word: String) throws(Failure) {
        let count = word.utf8.count
        guard offset + count <= bytes.count, word.utf8.elementsEqual(bytes[offset..<offset + count]) else { throw failure }
        offset += count
    }

    private mutating func expect(_ byte: UInt8) throws(Failure) {
        guard current == byte else { throw failure }
        offset += 1
    }
}
