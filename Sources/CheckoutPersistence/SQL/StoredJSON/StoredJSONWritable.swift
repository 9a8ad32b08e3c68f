import Foundation
import JSONWriting

/// A value that writes its own stored JSON: exactly its synthesized `Codable` form (keys in sorted
/// order, an absent optional left out, an instant as `Date`'s seconds since 2001), so rows written
/// either way decode alike. `StoredJSONTests` holds each writer to `JSONEncoder`'s output.
protocol StoredJSONWritable: Encodable {
    func write(to json: inout JSONWriter)
}

extension Array: StoredJSONWritable where Element: StoredJSONWritable {
    func write(to json: inout JSONWriter) {
        json.beginArray()
        for element in self { element.write(to: &json) }
        json.endArray()
    }
}

extension JSONWriter {
    /// A key and its value's stored JSON.
    mutating func field(_ key: String, _ value: some StoredJSONWritable) {
        self.key(key)
        value.write(to: &self)
    }

    /// A key and its instant in `Date`'s own `Codable` form: seconds since 2001 as a number.
    mutating func field(_ key: String, codable date: Date) {
        self.key(key)
        number(date.timeIntervalSinceReferenceDate)
    }

    /// An enum case with one labelled value, as `Codable` synthesizes it: `{"case":{"label":value}}`.
    mutating func enumCase(_ name: String, _ label: String, _ value: some StoredJSONWritable) {
        beginObject()
        key(name)
        beginObject()
        field(label, value)
        endObject()
        endObject()
    }
}
