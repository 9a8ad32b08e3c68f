public import CheckoutMessaging
public import RabbitMQ
import Synchronization

/// A broker in this process, for running the command handler without RabbitMQ: it confirms every
/// publish at once, records what was published and how deliveries were settled, in order, and fails
/// the publishes a test tells it to.
///
/// Like a connection, it refuses a message whose properties do not fit in one frame. It routes nothing:
/// a test that follows a retry delivers the published copy again itself, as the retry queue would
/// after its delay.
public final class InMemoryMessageBroker: MessageBroker {
    /// What happened at the broker, in the order it happened.
    public enum Event: Sendable {
        /// Taken and confirmed.
        case published(AMQPMessage)
        /// Not taken: the publish threw `error`.
        case refused(AMQPMessage, AMQPError)
        /// A delivery was acked or handed back.
        case settled(deliveryTag: UInt64, InMemoryDelivery.Settlement)
    }

    /// Publishes to `exchange` that fail until `remaining` reaches 0 (nil: every one).
    private struct Failure {
        let exchange: String
        let error: AMQPError
        var remaining: Int?
    }

    private struct State {
        var events: [Event] = []
        var failures: [Failure] = []
        var lastDeliveryTag: UInt64 = 0
    }

    public let maximumPropertiesByteCount: Int
    private let state = Mutex(State())

    /// - Parameter maximumPropertiesByteCount: 131,050 by default: what RabbitMQ's default frame size
    ///   of 128 KiB leaves for properties.
    public init(maximumPropertiesByteCount: Int = 131_072 - 8 - 14) {
        self.maximumPropertiesByteCount = maximumPropertiesByteCount
    }

    public func publish(_ message: AMQPMessage) async throws {
        let error = state.withLock { state -> AMQPError? in
            let error = failure(for: message, in: &state)
            state.events.append(error.map { .refused(message, $0) } ?? .published(message))
            return error
        }
        if let error { throw error }
    }

    /// Makes the publishes to `exchange` fail with `error`, the next `times` of them or every one:
    /// `.publishNacked` as when the broker nacks, `.timeout` as when no confirm comes, `.unroutable` as
    /// when a mandatory message reaches no queue, `.connectionLost`.
    public func failPublishes(toExchange exchange: String, with error: AMQPError, times: Int? = nil) {
        state.withLock { $0.failures.append(Failure(exchange: exchange, error: error, remaining: times)) }
    }

    /// A message as a consumer would receive it from a queue the broker routed it to with `routingKey`.
    ///
    /// - Parameters:
    ///   - bodySize: The size the broker announced, when `body` is only the first bytes of it.
    ///   - headersTruncated: Whether the consumer cut headers nested too deep.
    public func deliver(
        routingKey: String,
        properties: AMQPProperties = AMQPProperties(),
        body: [UInt8],
        bodySize: Int? = nil,
        headersTruncated: Bool = false
    ) -> InMemoryDelivery {
        let deliveryTag = state.withLock { state in
            state.lastDeliveryTag += 1
            return state.lastDeliveryTag
        }
        return InMemoryDelivery(
            broker: self, deliveryTag: deliveryTag, routingKey: routingKey, properties: properties,
            body: body, bodySize: bodySize ?? body.count, headersTruncated: headersTruncated)
    }

    /// Everything that happened so far, in order.
    public var events: [Event] {
        state.withLock { $0.events }
    }

    /// The messages taken for `exchange` (under `routingKey`, or any), in order.
    public func published(toExchange exchange: String, routingKey: String? = nil) -> [AMQPMessage] {
        events.compactMap { event in
            guard case .published(let message) = event, message.exchange == exchange,
                routingKey == nil || message.routingKey == routingKey
            else { return nil }
            return message
        }
    }

    /// How `delivery` was settled, each time it was: once, if the handler is right.
    public func settlements(of delivery: InMemoryDelivery) -> [InMemoryDelivery.Settlement] {
        events.compactMap { event in
            guard case .settled(delivery.deliveryTag, let settlement) = event else { return nil }
            return settlement
        }
    }

    func settle(_ deliveryTag: UInt64, as settlement: InMemoryDelivery.Settlement) {
        state.withLock { $0.events.append(.settled(deliveryTag: deliveryTag, settlement)) }
    }

    private func failure(for message: AMQPMessage, in state: inout State) -> AMQPError? {
        if let error = message.shortStringError { return error }
        let size = message.properties.encodedByteCount
        if size > maximumPropertiesByteCount {
            return AMQPError(
                code: .protocolError, message: "the properties take \(size) bytes, over the \(maximumPropertiesByteCount) of one frame")
        }
        guard let index = state.failures.firstIndex(where: { $0.exchange == message.exchange }) else { return nil }
        let error = state.failures[index].error
        if let remaining = state.failures[index].remaining {
            if remaining <= 1 { state.failures.remove(at: index) } else { state.failures[index].remaining = remaining - 1 }
        }
        return error
    }
}
