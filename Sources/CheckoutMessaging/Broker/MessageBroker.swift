public import RabbitMQ

/// What handling a command needs of the broker: publishing with confirm, for events, retries and
/// dead letters.
///
/// Kept this narrow so that every branch of the handler runs over an in-memory broker in tests.
/// The worker runs it over `AMQPConnection`.
public protocol MessageBroker: Sendable {
    /// The most bytes a message's properties may encode to (``AMQPProperties/encodedByteCount``): they
    /// travel in one frame. A publish over it fails with ``AMQPError/Code/protocolError``.
    var maximumPropertiesByteCount: Int { get }

    /// Publishes `message` and returns once the broker confirmed it.
    ///
    /// Throws an ``AMQPError`` when the broker did not take it: nacked, returned as unroutable (when
    /// mandatory), unconfirmed in time, or the connection lost.
    func publish(_ message: AMQPMessage) async throws
}
