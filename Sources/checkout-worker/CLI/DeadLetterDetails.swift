import CheckoutMessaging
import Foundation
import RabbitMQ

/// `dead-letters show` for people: every property, every header and the whole body of a dead letter.
enum DeadLetterDetails {
    static func text(_ letter: DeadLetter, queue: String) -> String {
        let properties = letter.delivery.properties
        var lines = ["dead letter \(letter.position) of \(queue), routing key \(TerminalText.escaped(letter.routingKey))", "properties:"]
        let values: [(String, String?)] = [
            ("message_id", properties.messageID),
            ("correlation_id", properties.correlationID),
            ("reply_to", properties.replyTo),
            ("content_type", properties.contentType),
            ("content_encoding", properties.contentEncoding),
            ("delivery_mode", properties.deliveryMode.map { "\($0.rawValue) (\($0 == .persistent ? "persistent" : "transient"))" }),
            ("priority", properties.priority.map { "\($0)" }),
            ("expiration", properties.expiration),
            ("timestamp", properties.timestamp.map(describe)),
            ("type", properties.type),
            ("user_id", properties.userID),
            ("app_id", properties.appID),
        ]
        for case let (name, value?) in values {
            lines.append("  \(name): \(TerminalText.escaped(value))")
        }
        lines.append(
            letter.delivery.headersTruncated
                ? "headers (tables and arrays nested over \(AMQPDelivery.maximumHeaderDepth) deep were not read, and show as null):"
                : "headers:")
        for (name, value) in (properties.headers ?? [:]).sorted(by: { $0.key < $1.key }) {
            lines.append("  \(TerminalText.escaped(name)): \(describe(value, nested: false))")
        }
        let body = letter.delivery.body
        if let json = prettyJSON(body) {
            lines.append("body (\(body.count) bytes, JSON):")
            lines.append(TerminalText.escapedLines(json))
        } else {
            lines.append("body (\(body.count) bytes, not JSON; bytes outside printable ASCII escaped):")
            lines.append(TerminalText.escaped(body))
        }
        return lines.joined(separator: "\n")
    }

    /// A header value as text; strings are quoted only inside tables and arrays.
    static func describe(_ value: AMQPFieldValue, nested: Bool) -> String {
        switch value {
        case .bool(let v): "\(v)"
        case .int8(let v): "\(v)"
        case .uint8(let v): "\(v)"
        case .int16(let v): "\(v)"
        case .uint16(let v): "\(v)"
        case .int32(let v): "\(v)"
        case .uint32(let v): "\(v)"
        case .int64(let v): "\(v)"
        case .uint64(let v): "\(v)"
        case .float(let v): "\(v)"
        case .double(let v): "\(v)"
        case .decimal(let scale, let v): decimal(v, scale: Int(scale))
        case .string(let text): TerminalText.escaped(text, quoted: nested)
        case .bytes(let bytes): "bytes \"\(TerminalText.escaped(bytes))\""
        case .timestamp(let timestamp): describe(timestamp)
        case .array(let values): "[" + values.map { describe($0, nested: true) }.joined(separator: ", ") + "]"
        case .table(let table):
            "{"
                + table.sorted { $0.key < $1.key }.map { "\(TerminalText.escaped($0.key)): \(describe($0.value, nested: true))" }.joined(
                    separator: ", ")
                + "}"
        case .void: "null"
        }
    }

    /// `value` × 10^-`scale` written out exactly: a scale can reach 255, past what `Decimal` holds.
    static func decimal(_ value: UInt32, scale: Int) -> String {
        let digits = String(value)
        guard scale > 0 else { return digits }
        let padded = String(repeating: "0", count: max(0, scale + 1 - digits.count)) + digits
        return padded.dropLast(scale) + "." + padded.suffix(scale)
    }

    /// Indented JSON with sorted keys, or nil when the body is not JSON.
    /// ISO 8601 for the years it can write; a client may send any number of seconds, up to `UInt64.max`.
    static func describe(_ timestamp: AMQPTimestamp) -> String {
        guard timestamp.secondsSince1970 < 253_402_300_800 else { return "\(timestamp.secondsSince1970) s since 1970" }
        return timestamp.date.formatted(.iso8601)
    }

    static func prettyJSON(_ body: [UInt8]) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed]),
            let data = try? JSONSerialization.data(
                withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
        else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
