import Foundation

/// JSON for event bodies: ISO 8601 timestamps with milliseconds, keys in a stable order.
enum EventEncoder {
    /// One encoder for every event: its configuration never changes after this, and encoding does not mutate it.
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
        }
        return encoder
    }()

    static func encode(_ event: some Encodable) throws -> Data {
        try encoder.encode(event)
    }
}
