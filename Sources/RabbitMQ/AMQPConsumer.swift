import Synchronization

/// The deliveries of one queue, as an async sequence that survives connection recovery.
///
/// Ending the iteration (its task cancelled, or every copy of the consumer and its iterators dropped)
/// cancels the subscription on the broker; deliveries it received but never handed out go back to the
/// queue at once, and unsettled ones are redelivered to other consumers when their channel closes.
public struct AMQPConsumer: AsyncSequence, Sendable {
    public typealias Element = AMQPDelivery
    public typealias Failure = Never

    /// Ends the subscription when the last consumer or iterator holding it goes away.
    final class Subscription: Sendable {
        let buffer: AMQPDeliveryBuffer

        init(buffer: AMQPDeliveryBuffer) {
            self.buffer = buffer
        }

        deinit {
            buffer.terminate()
        }
    }

    public struct Iterator: AsyncIteratorProtocol {
        let subscription: Subscription

        public mutating func next() async -> AMQPDelivery? {
            await subscription.buffer.next(isolation: nil)
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async -> AMQPDelivery? {
            await subscription.buffer.next(isolation: actor)
        }
    }

    public let queue: String
    let subscription: Subscription

    init(queue: String, buffer: AMQPDeliveryBuffer) {
        self.queue = queue
        self.subscription = Subscription(buffer: buffer)
    }

    /// Whether the broker is delivering: false while the subscription is being recovered (a lost
    /// connection, or a consumer the broker cancelled because its queue was deleted).
    public var isSubscribed: Bool { subscription.buffer.isSubscribed.load(ordering: .relaxed) }

    public func makeAsyncIterator() -> Iterator {
        Iterator(subscription: subscription)
    }
}
