extension AMQPProperties {
    /// The bytes these properties take on the wire (AMQP 0-9-1 §4.2.6), after the 14 bytes of class,
    /// weight, body size and flags that start a content header. Compare with
    /// ``AMQPConnection/maximumPropertiesByteCount`` before re-publishing a message with headers added.
    public var encodedByteCount: Int {
        let texts = [contentType, contentEncoding, correlationID, replyTo, expiration, messageID, type, userID, appID]
        var count = texts.reduce(0) { $0 + ($1.map { 1 + $0.utf8.count } ?? 0) }
        if let headers { count += headers.encodedByteCount }
        if deliveryMode != nil { count += 1 }
        if priority != nil { count += 1 }
        if timestamp != nil { count += 8 }
        return count
    }
}

extension AMQPFieldTable {
    /// The table's length prefix and its entries: a short-string key, a type byte and the value each.
    public var encodedByteCount: Int {
        reduce(4) { $0 + 1 + $1.key.utf8.count + $1.value.encodedByteCount }
    }
}

extension AMQPFieldValue {
    /// The type byte and the value, as RabbitMQ and librabbitmq encode it.
    public var encodedByteCount: Int {
        switch self {
        case .bool, .int8, .uint8: 2
        case .int16, .uint16: 3
        case .int32, .uint32, .float: 5
        case .int64, .uint64, .double, .timestamp: 9
        case .decimal: 6
        case .string(let text): 5 + text.utf8.count
        case .bytes(let bytes): 5 + bytes.count
        case .array(let values): values.reduce(5) { $0 + $1.encodedByteCount }
        case .table(let table): 1 + table.encodedByteCount
        case .void: 1
        }
    }
}
