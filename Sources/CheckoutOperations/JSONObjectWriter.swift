import Foundation
import JSONWriting
import Logging

/// Writes one JSON object field by field, in the order the fields are given.
///
/// Log lines and probe bodies are small and their field order matters to a reader (timestamp and
/// level first), which `JSONEncoder` does not promise; this writes them directly instead.
struct JSONObjectWriter {
    private var writer = JSONWriter()

    init() {
        writer.beginObject()
    }

    mutating func field(_ key: String, _ value: String) {
        writer.key(key)
        writer.string(value)
    }

    mutating func field(_ key: String, _ value: Logger.MetadataValue) {
        writer.key(key)
        Self.write(value, to: &writer)
    }

    mutating func field(_ key: String, timestamp: Date) {
        writer.key(key)
        writer.timestamp(timestamp)
    }

    /// Adds a field whose value is already JSON, such as a nested object.
    mutating func field(_ key: String, json: [UInt8]) {
        writer.key(key)
        writer.json(json)
    }

    /// The object's UTF-8 bytes.
    func finish() -> [UInt8] {
        var writer = writer
        writer.endObject()
        return writer.bytes
    }

    /// Strings stay strings; dictionaries become objects with sorted keys and arrays become arrays.
    private static func write(_ value: Logger.MetadataValue, to writer: inout JSONWriter) {
        switch value {
        case .string(let string):
            writer.string(string)
        case .stringConvertible(let convertible):
            writer.string(convertible.description)
        case .dictionary(let dictionary):
            writer.beginObject()
            for (key, value) in dictionary.sorted(by: { $0.key < $1.key }) {
                writer.key(key)
                write(value, to: &writer)
            }
            writer.endObject()
        case .array(let array):
            writer.beginArray()
            for element in array {
                write(element, to: &writer)
            }
            writer.endArray()
        }
    }
}
