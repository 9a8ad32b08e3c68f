/// A message the broker delivered to a consumer. Settle it exactly once with ``ack()``, ``nack(requeue:)``
/// or ``reject(requeue:)``.
///
/// Settling is cheap and never waits: it is queued for the connection's thread, which coalesces acks.
/// A delivery that arrived before a connection or channel was lost is not settled on the new one (its tag
/// would name another message there); the broker redelivers it instead.
public struct AMQPDelivery: Sendable {
    public let exchange: String
    public let routingKey: String
    public let properties: AMQPProperties
    /// The body, or its first ``AMQPConnection/consume(queue:prefetch:maximumBodyBytes:)`` bytes when it is larger.
    public let body: [UInt8]
    /// The body's size as the broker announced it; larger than `body.count` when the body was cut.
    public let bodySize: Int
    /// Whether header tables or arrays nested deeper than the connection copies were replaced by void.
    public let headersTruncated: Bool
    /// Whether the broker delivered this message before (to this or another consumer).
    public let redelivered: Bool
    public let deliveryTag: UInt64

    let consumerID: Int
    let channelGeneration: UInt64
    let settler: any AMQPDeliverySettling

    init(
        exchange: String, routingKey: String, properties: AMQPProperties, body: [UInt8], bodySize: Int, headersTruncated: Bool,
        redelivered: Bool, deliveryTag: UInt64, consumerID: Int, channelGeneration: UInt64, settler: any AMQPDeliverySettling
    ) {
        self.exchange = exchange
        self.routingKey = routingKey
        self.properties = properties
        self.body = body
        self.bodySize = bodySize
        self.headersTruncated = headersTruncated
        self.redelivered = redelivered
        self.deliveryTag = deliveryTag
        self.consumerID = consumerID
        self.channelGeneration = channelGeneration
        self.settler = settler
    }

    /// How deep header tables and arrays are copied from the wire; see ``headersTruncated``.
    public static var maximumHeaderDepth: Int { AMQPCDecoding.maximumDepth }

    /// Whether the body arrived whole (not cut at the consumer's limit).
    public var isBodyComplete: Bool { body.count >= bodySize }

    public func ack() { settler.settle(self, as: .ack) }
    public func nack(requeue: Bool) { settler.settle(self, as: .nack(requeue: requeue)) }
    public func reject(requeue: Bool) { settler.settle(self, as: .reject(requeue: requeue)) }
}

/// How a delivery is settled.
enum AMQPSettlement: Sendable, Equatable {
    case ack
    case nack(requeue: Bool)
    case reject(requeue: Bool)
}

/// Where deliveries send their settlement: the connection that received them.
protocol AMQPDeliverySettling: Sendable {
    func settle(_ delivery: AMQPDelivery, as settlement: AMQPSettlement)
}
