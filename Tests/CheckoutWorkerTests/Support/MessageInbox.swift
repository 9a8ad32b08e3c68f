import Foundation
import RabbitMQ
import Synchronization
import Testing

/// The messages a test's client received on one queue, in arrival order.
final class MessageInbox: Sendable {
    private let received = Mutex<[AMQPDelivery]>([])

    func append(_ delivery: AMQPDelivery) {
        received.withLock { $0.append(delivery) }
    }

    var all: [AMQPDelivery] { received.withLock { $0 } }

    /// The messages with `correlation_id` (or, for dead letters, `message_id`) equal to `id`.
    func about(_ id: String) -> [AMQPDelivery] {
        all.filter { $0.properties.correlationID == id || $0.properties.messageID == id }
    }

    /// Waits until `count` messages satisfy `predicate`, for at most `timeout`; returns them.
    @discardableResult
    func wait(
        for count: Int = 1,
        timeout: Duration = .seconds(10),
        sourceLocation: SourceLocation = #_sourceLocation,
        where predicate: (AMQPDelivery) -> Bool = { _ in true }
    ) async throws -> [AMQPDelivery] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let matching = all.filter(predicate)
            if matching.count >= count { return matching }
            if ContinuousClock.now >= deadline {
                Issue.record("waited \(timeout) for \(count) messages, got \(matching.count)", sourceLocation: sourceLocation)
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
