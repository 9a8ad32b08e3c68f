import CheckoutMessaging
import Foundation
import RabbitMQ
import Testing

/// A dead-letter queue holding one message of each kind of failure, each dead-lettered by a real worker,
/// in a known order.
enum MixedDeadLetters {
    struct Expected: Equatable {
        var routingKey: String
        var reason: String
        var retryCount: Int?
        var messageID: String?
    }

    static let traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
    static let missingFieldBody =
        #"{"cartId":"cart-42","customerId":"cust-7","expectedTotal":5998,"currency":"EUR","payment":{"token":"tok_visa"}}"#

    /// What `make` leaves in the queue, head first.
    static func expected(in world: TestWorld) -> [Expected] {
        [
            Expected(routingKey: "cart.sync", reason: "invalid-json", retryCount: 0, messageID: "bad-json"),
            Expected(routingKey: "cart.sync", reason: "missing-message-id", retryCount: 0, messageID: nil),
            Expected(routingKey: "order.place", reason: "missing-field", retryCount: 0, messageID: "bad-field"),
            Expected(routingKey: world.names.syncCartQueue, reason: "unknown-routing-key", retryCount: 0, messageID: "direct-1"),
            Expected(routingKey: "order.place", reason: "retries-exhausted", retryCount: 2, messageID: "order-flaky"),
        ]
    }

    /// Sends each failing message through the running worker and waits for its dead letter before the next.
    static func make(in world: TestWorld) async throws {
        let queue = DeadLetterQueue(connection: world.client, configuration: world.names)
        try await world.sendRaw("cart.sync", Array("{not json".utf8), messageID: "bad-json")
        try await queue.waitUntilItHolds(1)
        try await world.sendRaw("cart.sync", Array(Bodies.syncCart().utf8), messageID: nil)
        try await queue.waitUntilItHolds(2)
        try await world.sendRaw(
            "order.place", Array(missingFieldBody.utf8), messageID: "bad-field", correlationID: "corr-9",
            replyTo: world.replyQueue, headers: ["traceparent": .string(traceparent)])
        try await queue.waitUntilItHolds(3)
        try await world.sendRaw(world.names.syncCartQueue, Array(Bodies.syncCart().utf8), messageID: "direct-1", exchange: "")
        try await queue.waitUntilItHolds(4)
        try await world.send(.syncCart, Bodies.syncCart(), messageID: "sync-1")
        try await world.events.wait { $0.properties.correlationID == "sync-1" }
        try await world.send(.placeOrder, Bodies.placeOrder(token: "tok_processingError"), messageID: "order-flaky")
        try await queue.waitUntilItHolds(5)
    }
}

extension DeadLetterQueue {
    /// How many messages the queue holds (reading one, which stays).
    func count() async throws -> Int {
        try await list(limit: 1) { _ in }
    }

    func waitUntilItHolds(_ count: Int, timeout: Duration = .seconds(20), sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let deadline = ContinuousClock.now + timeout
        while try await self.count() < count {
            guard ContinuousClock.now < deadline else {
                Issue.record(
                    "waited \(timeout) for \(count) dead letters, the queue holds \(try await self.count())", sourceLocation: sourceLocation
                )
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Every dead letter, head first.
    func all() async throws -> [DeadLetter] {
        var letters: [DeadLetter] = []
        try await list { letters.append($0) }
        return letters
    }
}

extension DeadLetter {
    var summary: MixedDeadLetters.Expected {
        MixedDeadLetters.Expected(routingKey: routingKey, reason: reason ?? "", retryCount: retryCount, messageID: messageID)
    }
}
