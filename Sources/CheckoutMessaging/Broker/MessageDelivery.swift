public import RabbitMQ

/// A message the broker delivered to the worker, and how it is settled: exactly once, with ``ack()``
/// or ``nack(requeue:)``.
///
/// What the handler needs of a delivery, so that tests can hand it deliveries without a broker. The
/// worker's are `AMQPDelivery`.
public protocol MessageDelivery: Sendable {
    var routingKey: String { get }
    var properties: AMQPProperties { get }
    /// The body, or its first bytes when it was over the consumer's limit.
    var body: [UInt8] { get }
    /// The body's size as the broker announced it; larger than `body.count` when the body was cut.
    var bodySize: Int { get }
    /// Whether the body arrived whole.
    var isBodyComplete: Bool { get }
    /// Whether header tables or arrays nested deeper than the consumer reads were cut.
    var headersTruncated: Bool { get }

    /// Done with: the broker forgets the message.
    func ack()
    /// Handed back: with `requeue`, the broker delivers the message again.
    func nack(requeue: Bool)
}
