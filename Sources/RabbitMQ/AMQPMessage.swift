/// A message to publish: where it goes, its properties and its body.
public struct AMQPMessage: Sendable {
    public var exchange: String
    public var routingKey: String
    public var properties: AMQPProperties
    public var body: [UInt8]
    /// When set, a message that matches no queue comes back and the publish throws ``AMQPError/Code/unroutable``.
    public var mandatory: Bool

    public init(
        exchange: String,
        routingKey: String,
        properties: AMQPProperties = AMQPProperties(),
        body: [UInt8],
        mandatory: Bool = false
    ) {
        self.exchange = exchange
        self.routingKey = routingKey
        self.properties = properties
        self.body = body
        self.mandatory = mandatory
    }
}
