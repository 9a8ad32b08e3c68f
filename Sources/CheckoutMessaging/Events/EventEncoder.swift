import Foundation

/// JSON for event bodies: ISO 8601 timestamps with milliseconds, keys in a stable order.
enum EventEncoder {
    static func encode(_ event: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
        }
        return try encoder.encode(event)
    }
}
