import Foundation
import JSONWriting

/// How outcomes, cart lines and charges are written as JSON text: the types' own `Codable` form,
/// keys sorted so equal values store equal text, and read back with `JSONDecoder`, but for the
/// `carts` table's lines, which every order reads (``cartLines(_:)``).
///
/// What every command stores (``StoredJSONWritable``) is written straight into bytes: through
/// `JSONEncoder` the outcome and the cart's lines of a sync were a tenth of a worker's CPU on SQLite.
enum StoredJSON {
    static func text(_ value: some Encodable) throws -> String {
        if let value = value as? any StoredJSONWritable {
            var json = JSONWriter(capacity: 1024)
            value.write(to: &json)
            return String(decoding: json.bytes, as: UTF8.self)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
