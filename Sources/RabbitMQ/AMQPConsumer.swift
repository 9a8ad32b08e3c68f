/// The deliveries of one queue, as an async sequence that survives connection recovery.
///
/// Ending the iteration (or dropping the consumer) cancels the subscription on the broker; unsettled
/// deliveries are then redelivered to other consumers.
public struct AMQPConsumer: AsyncSequence, Sendable {
    public typealias Element = AMQPDelivery
    public typealias Failure = Never

    public let queue: String
    let stream: AsyncStream<AMQPDelivery>

    init(queue: String, stream: AsyncStream<AMQPDelivery>) {
        self.queue = queue
        self.stream = stream
    }

    public func makeAsyncIterator() -> AsyncStream<AMQPDelivery>.Iterator {
        stream.makeAsyncIterator()
    }
}
