import Foundation

/// How outcomes and cart lines are written as JSON text: the types' own `Codable` form, keys sorted
/// so equal values store equal text.
enum StoredJSON {
    static func text(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
