public import CheckoutMessaging
public import RabbitMQ

/// A delivery from ``InMemoryMessageBroker``, which records how it is settled.
public struct InMemoryDelivery: MessageDelivery {
    /// How a delivery was settled.
    public enum Settlement: Sendable, Equatable {
        case ack
        case nack(requeue: Bool)
    }

    private let broker: InMemoryMessageBroker
    /// Tells this delivery's settlements apart from the others' in ``InMemoryMessageBroker/events``.
    public let deliveryTag: UInt64
    public let routingKey: String
    public let properties: AMQPProperties
    public let body: [UInt8]
    public let bodySize: Int
    public let headersTruncated: Bool

    init(
        broker: InMemoryMessageBroker, deliveryTag: UInt64, routingKey: String, properties: AMQPProperties, body: [UInt8],
        bodySize: Int, headersTruncated: Bool
    ) {
        self.broker = broker
        self.deliveryTag = deliveryTag
        self.routingKey = routingKey
        self.properties = properties
        self.body = body
        self.bodySize = bodySize
        self.headersTruncated = headersTruncated
    }

    public var isBodyComplete: Bool { body.count >= bodySize }

    public func ack() { broker.settle(deliveryTag, as: .ack) }
    public func nack(requeue: Bool) { broker.settle(deliveryTag, as: .nack(requeue: requeue)) }
}
