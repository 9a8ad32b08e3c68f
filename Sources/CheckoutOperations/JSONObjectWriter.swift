import Logging

/// Writes one JSON object field by field, in the order the fields are given.
///
/// Log lines and probe bodies are small and their field order matters to a reader (timestamp and
/// level first), which `JSONEncoder` does not promise; this writes them directly instead.
struct JSONObjectWriter {
    private var text = "{"
    private var isEmpty = true

    mutating func field(_ key: String, _ value: String) {
        appendKey(key)
        Self.appendQuoted(value, to: &text)
    }

    mutating func field(_ key: String, _ value: Logger.MetadataValue) {
        appendKey(key)
        Self.append(value, to: &text)
    }

    /// Adds a field whose value is already JSON, such as a nested object.
    mutating func field(_ key: String, json: String) {
        appendKey(key)
        text += json
    }

    func finish() -> String {
        text + "}"
    }

    private mutating func appendKey(_ key: String) {
        if !isEmpty { text += "," }
        isEmpty = false
        Self.appendQuoted(key, to: &text)
        text += ":"
    }

    /// Strings stay strings; dictionaries become objects with sorted keys and arrays become arrays.
    private static func append(_ value: Logger.MetadataValue, to text: inout String) {
        switch value {
        case .string(let string):
            appendQuoted(string, to: &text)
        case .stringConvertible(let convertible):
            appendQuoted(convertible.description, to: &text)
        case .dictionary(let dictionary):
            var object = JSONObjectWriter()
            for (key, value) in dictionary.sorted(by: { $0.key < $1.key }) {
                object.field(key, value)
            }
            text += object.finish()
        case .array(let array):
            text += "["
            for (index, element) in array.enumerated() {
                if index > 0 { text += "," }
                append(element, to: &text)
            }
            text += "]"
        }
    }

    private static func appendQuoted(_ string: String, to text: inout String) {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case "\u{08}": text += "\\b"
            case "\u{0C}": text += "\\f"
            case "\u{00}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
