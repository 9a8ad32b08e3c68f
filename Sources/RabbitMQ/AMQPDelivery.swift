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
    public let body: [UInt8]
    /// Whether the broker delivered this message before (to this or another consumer).
    public let redelivered: Bool
    public let deliveryTag: UInt64

    let consumerID: Int
    let channelGeneration: UInt64
    let settler: any AMQPDeliverySettling

    init(exchange: String, routingKey: String, properties: AMQPProperties, body: [UInt8], redelivered: Bool,
         deliveryTag: UInt64, consumerID: Int, channelGeneration: UInt64, settler: any AMQPDeliverySettling) {
        self.exchange = exchange
        self.routingKey = routingKey
        self.properties = properties
        self.body = body
        self.redelivered = redelivered
        self.deliveryTag = deliveryTag
        self.consumerID = consumerID
        self.channelGeneration = channelGeneration
        self.settler = settler
    }

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
