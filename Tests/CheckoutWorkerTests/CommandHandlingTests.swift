import CheckoutMessaging
import Foundation
import RabbitMQ
import Testing

/// The worker driven as a client drives it: publish a command, read the event.
@Suite(.serialized) struct CommandHandlingTests {
    @Test func syncsACartAndPublishesCartSyncedWithEveryPropertyOfTheContract() async throws {
        try await withWorld { world in
            let traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
            let id = try await world.send(
                .syncCart, Bodies.syncCart(), messageID: "cmd-sync-1", headers: ["traceparent": .string(traceparent)])!

            let event = try #require(try await world.events.wait { $0.properties.type == "cart.synced" }.first)

            #expect(event.routingKey == "cart.synced")
            #expect(event.properties.messageID == "\(id)/cart.synced")
            #expect(event.properties.correlationID == id)
            #expect(event.properties.headers?["causation_id"]?.stringValue == id)
            #expect(event.properties.contentType == "application/json")
            #expect(event.properties.deliveryMode == .persistent)
            #expect(event.properties.timestamp != nil)
            let continued = try #require(event.properties.headers?["traceparent"]?.stringValue)
            #expect(continued.hasPrefix("00-4bf92f3577b34da6a3ce929d0e0e4736-"))
            #expect(continued != traceparent)
            let body = Bodies.json(event)
            #expect(body["version"] as? Int == 1)
            #expect(body["subtotal"] as? Int == 5998)
            try ContractSchemas.validate(event)
        }
    }

    @Test func answersOnReplyToWithTheClientsCorrelationID() async throws {
        try await withWorld { world in
            try await world.send(.syncCart, Bodies.syncCart(), messageID: "cmd-r", correlationID: "corr-9", replyTo: world.replyQueue)

            let reply = try #require(try await world.replies.wait().first)
            #expect(reply.properties.type == "cart.synced")
            #expect(reply.properties.correlationID == "corr-9")
            #expect(reply.properties.messageID == "cmd-r/cart.synced")
            try await world.events.wait { $0.properties.correlationID == "corr-9" }
        }
    }

    @Test func aRepeatedCommandRepublishesTheSameEventAndHasNoOtherEffect() async throws {
        try await withWorld { world in
            try await world.send(.syncCart, Bodies.syncCart(), messageID: "cmd-once")
            try await world.events.wait { $0.properties.messageID == "cmd-once/cart.synced" }
            try await world.send(.syncCart, Bodies.syncCart(), messageID: "cmd-once")

            let events = try await world.events.wait(for: 2) { $0.properties.correlationID == "cmd-once" }
            #expect(events.map(\.properties.messageID) == ["cmd-once/cart.synced", "cmd-once/cart.synced"])
            #expect(events.map { Bodies.json($0)["version"] as? Int } == [1, 1])
        }
    }

    @Test func placesAnOrderFromASyncedCart() async throws {
        try await withWorld { world in
            try await world.send(.syncCart, Bodies.syncCart(), messageID: "sync-1")
            try await world.events.wait { $0.properties.correlationID == "sync-1" }
            try await world.send(.placeOrder, Bodies.placeOrder(), messageID: "order-1")

            let placed = try #require(try await world.events.wait { $0.properties.correlationID == "order-1" }.first)
            #expect(placed.properties.type == "order.placed")
            let body = Bodies.json(placed)
            #expect(body["orderId"] as? String == "order-1")
            #expect(body["total"] as? Int == 5998)
            try ContractSchemas.validate(placed)
        }
    }

    @Test(arguments: [
        ("cart-not-found", Bodies.placeOrder(cart: "cart-none")),
        ("forbidden", Bodies.placeOrder(customer: "cust-8")),
        ("cart-changed", Bodies.placeOrder(cartVersion: 2)),
        ("price-changed", Bodies.placeOrder(expectedTotal: 100)),
        ("payment-declined", Bodies.placeOrder(token: "tok_chargeDeclined")),
        ("invalid-request", Bodies.placeOrder(cart: "cart 42")),
    ])
    func rejectsAnOrderWithTheContractsReason(reason: String, body: String) async throws {
        try await withWorld { world in
            try await world.send(.syncCart, Bodies.syncCart(), messageID: "sync-1")
            try await world.events.wait { $0.properties.correlationID == "sync-1" }
            try await world.send(.placeOrder, body, messageID: "order-x")

            let rejected = try #require(try await world.events.wait { $0.properties.correlationID == "order-x" }.first)
            #expect(rejected.properties.type == "order.rejected")
            #expect(Bodies.json(rejected)["reason"] as? String == reason)
            try ContractSchemas.validate(rejected)
            #expect(world.deadLetters.all.isEmpty)
        }
    }

    @Test func rejectsASyncFromAnOldVersionWithTheCurrentOne() async throws {
        try await withWorld { world in
            try await world.send(.syncCart, Bodies.syncCart(), messageID: "sync-1")
            try await world.events.wait { $0.properties.correlationID == "sync-1" }
            try await world.send(.syncCart, Bodies.syncCart(baseVersion: 0), messageID: "sync-2")

            let rejected = try #require(try await world.events.wait { $0.properties.correlationID == "sync-2" }.first)
            #expect(rejected.properties.type == "cart.sync-rejected")
            #expect(Bodies.json(rejected)["reason"] as? String == "version-conflict")
            #expect(Bodies.json(rejected)["currentVersion"] as? Int == 1)
            try ContractSchemas.validate(rejected)
        }
    }
}
