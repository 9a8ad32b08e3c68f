public import Foundation
public import RabbitMQ

/// A message of the dead-letter queue, with what the worker wrote about why it is there.
public struct DeadLetter: Sendable {
    /// Where it was in the queue when it was read: 1 for the head.
    public let position: Int
    public let delivery: AMQPDelivery

    public init(position: Int, delivery: AMQPDelivery) {
        self.position = position
        self.delivery = delivery
    }

    /// The command's `message_id`; nil for input that had none (`missing-message-id`).
    public var messageID: String? {
        delivery.properties.messageID.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The routing key the client published with, as the worker wrote it; the dead letter's own when
    /// the header could not be one (anyone allowed to publish to the dead-letter exchange can write it).
    public var routingKey: String {
        guard let original = header(RetryHeaders.originalRoutingKey)?.stringValue, original.utf8.count <= 255 else {
            return delivery.routingKey
        }
        return original
    }

    /// The `x-error-reason` code: a malformed-input code, `retries-exhausted` or `failed-permanently`.
    public var reason: String? { header(RetryHeaders.errorReason)?.stringValue }

    public var detail: String? { header(RetryHeaders.errorDetail)?.stringValue }

    /// How many retries came before it was given up; 0 for input dead-lettered at once, nil for a header
    /// that is no count (negative, or not a whole number), which no worker wrote.
    public var retryCount: Int? {
        guard let header = header(RetryHeaders.retryCount) else { return 0 }
        return header.intValue.flatMap { $0 >= 0 ? $0 : nil }
    }

    /// When the worker dead-lettered it; nil for a time past the year 9999, which no worker wrote (the
    /// queue takes publishes from anyone allowed to), and whose age in seconds would not fit an `Int`.
    public var deadLetteredAt: Date? {
        guard case .timestamp(let timestamp) = header(RetryHeaders.deadLetteredAt), timestamp.secondsSince1970 <= Self.latestTime else {
            return nil
        }
        return timestamp.date
    }

    /// 9999-12-31T23:59:59Z.
    private static let latestTime: UInt64 = 253_402_300_799

    /// The command as the client sent it, to publish again: same properties and body, under its
    /// original routing key, without the worker's headers, so that its retries start again from zero,
    /// and without what the worker leaves out of any copy it publishes (``AMQPProperties/republishable``).
    public func replay(to exchange: String) -> AMQPMessage {
        var properties = delivery.properties.republishable
        properties.headers = properties.headers?.filter { !RetryHeaders.all.contains($0.key) }
        if properties.headers?.isEmpty == true { properties.headers = nil }
        return AMQPMessage(exchange: exchange, routingKey: routingKey, properties: properties, body: delivery.body, mandatory: true)
    }

    private func header(_ name: String) -> AMQPFieldValue? {
        delivery.properties.headers?[name]
    }
}
