extension AMQPMessage {
    /// Why the message cannot be published, if one of its short strings is over AMQP 0-9-1's 255 bytes
    /// (the exchange, the routing key, the text properties, the keys of every header table); nil when
    /// all fit. Without gathering, librabbitmq refuses such a message only after writing part of it,
    /// which breaks the connection, so the driver asks first.
    public var shortStringError: AMQPError? {
        overlongShortString.map { AMQPError(code: .protocolError, message: "the message cannot be encoded: its \($0) is over AMQP's 255") }
    }

    /// The first short string over 255 bytes, named with its length.
    private var overlongShortString: String? {
        if let found = Self.overlong("exchange", exchange) ?? Self.overlong("routing key", routingKey) { return found }
        for (name, property) in Self.textProperties {
            if let found = Self.overlong(name, properties[keyPath: property]) { return found }
        }
        return properties.headers.flatMap { Self.overlongKey(in: $0) }.map { "a header key (\($0) bytes)" }
    }

    private static let textProperties: [(String, any KeyPath<AMQPProperties, String?> & Sendable)] = [
        ("content_type", \.contentType), ("content_encoding", \.contentEncoding), ("correlation_id", \.correlationID),
        ("reply_to", \.replyTo), ("expiration", \.expiration), ("message_id", \.messageID), ("type", \.type),
        ("user_id", \.userID), ("app_id", \.appID),
    ]

    static let maximumShortStringByteCount = 255

    private static func overlong(_ name: String, _ text: String?) -> String? {
        guard let count = text?.utf8.count, count > maximumShortStringByteCount else { return nil }
        return "\(name) (\(count) bytes)"
    }

    /// The length of the first key over 255 bytes in `table` or the tables nested in it.
    private static func overlongKey(in table: AMQPFieldTable) -> Int? {
        for (key, value) in table {
            if key.utf8.count > maximumShortStringByteCount { return key.utf8.count }
            if let found = overlongKey(in: value) { return found }
        }
        return nil
    }

    private static func overlongKey(in value: AMQPFieldValue) -> Int? {
        switch value {
        case .table(let table): overlongKey(in: table)
        case .array(let values): values.lazy.compactMap(overlongKey(in:)).first
        default: nil
        }
    }
}
