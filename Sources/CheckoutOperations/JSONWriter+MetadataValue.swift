import JSONWriting
import Logging

extension JSONWriter {
    /// A key and a log metadata value: strings stay strings, integers and booleans logged as
    /// `.stringConvertible` become JSON numbers and booleans, so collectors can compare and sum them,
    /// dictionaries become objects with sorted keys, and arrays become arrays. A string is cut past
    /// ``Swift/String/logValueLimit`` bytes.
    mutating func field(_ key: String, _ value: Logger.MetadataValue) {
        self.key(key)
        write(value)
    }

    private mutating func write(_ value: Logger.MetadataValue) {
        switch value {
        case .string(let string):
            self.string(string.clippedForLog)
        case .stringConvertible(let value as Bool):
            bool(value)
        case .stringConvertible(let value as any BinaryInteger):
            integer(value)
        case .stringConvertible(let convertible):
            self.string(convertible.description.clippedForLog)
        case .dictionary(let dictionary):
            beginObject()
            for (key, value) in dictionary.sorted(by: { $0.key < $1.key }) {
                field(key, value)
            }
            endObject()
        case .array(let array):
            beginArray()
            for element in array { write(element) }
            endArray()
        }
    }
}
