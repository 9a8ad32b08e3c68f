import CheckoutMessaging
import Foundation
import RabbitMQ
import Testing

/// The rows of the contract's failure table.
@Suite struct FailureHandlingTests {
    @Test(arguments: [
        ("invalid-json", Array("{not json".utf8)),
        ("invalid-encoding", [0x7B, 0xFF, 0xFE, 0x7D] as [UInt8]),
        ("missing-field", Array(#"{"cartId":"cart-1","customerId":"c","currency":"EUR","items":[]}"#.utf8)),
        ("wrong-type", Array(#"{"cartId":"cart-1","customerId":"c","baseVersion":"0","currency":"EUR","items":[]}"#.utf8)),
        ("wrong-type", Array("[1,2,3]".utf8)),
        (
            "wrong-type",
            Array(#"{"cartId":"cart-1","customerId":"c","baseVersion":1e9223372036854775807,"currency":"EUR","items":[]}"#.utf8)
        ),
        (
            "wrong-type",
            Array(#"{"cartId":"cart-1","customerId":"c","baseVersion":1.5e-9223372036854775808,"currency":"EUR","items":[]}"#.utf8)
        ),
        ("body-too-large", Array(repeating: UInt8(ascii: " "), count: 256 * 1024 + 1)),
    ])
    func deadLettersAnUnreadableCommandWithItsReasonAndKeepsRunning(reason: String, body: [UInt8]) async throws {
        try await withWorld { world in
            try await world.sendRaw("cart.sync", body, messageID: "bad-1")

            let dead = try #require(try await world.deadLetters.wait().first)
            #expect(dead.properties.messageID == "bad-1")
            #expect(dead.properties.headers?["x-error-reason"]?.stringValue == reason)
            #expect(dead.properties.headers?["x-error-detail"]?.stringValue?.isEmpty == false)
            #expect(dead.properties.headers?["x-original-routing-key"]?.stringValue == "cart.sync")
            #expect(dead.body == Array(body.prefix(world.names.maximumBodyBytes)))

            try await world.send(.syncCart, Bodies.syncCart(), messageID: "good-1")
            try await world.events.wait { $0.properties.correlationID == "good-1" }
        }
    }

    @Test func deadLettersACommandWithoutMessageID() async throws {
        try await withWorld { world in
            try await world.sendRaw("cart.sync", Array(Bodies.syncCart().utf8), messageID: nil)

            let dead = try #require(try await world.deadLetters.wait().first)
            #expect(dead.properties.headers?["x-error-reason"]?.stringValue == "missing-message-id")
        }
    }

    @Test func deadLettersAnUnknownRoutingKey() async throws {
        try await withWorld { world in
            try await world.sendRaw(world.names.syncCartQueue, Array(Bodies.syncCart().utf8), messageID: "direct-1", exchange: "")

            let dead = try #require(try await world.deadLetters.wait().first)
            #expect(dead.properties.headers?["x-error-reason"]?.stringValue == "unknown-routing-key")
            #expect(dead.properties.headers?["x-original-routing-key"]?.stringValue == world.names.syncCartQueue)
        }
    }

    @Test func aFieldBreakingARuleOfFormIsRejectedAsInvalidRequestNamingEveryViolation() async throws {
        try await withWorld { world in
            try await world.send(.syncCart, Bodies.syncCart(cart: "cart 1", items: [("SKU-RED-M", 0)]), messageID: "form-1")

            let rejected = try #require(try await world.events.wait { $0.properties.correlationID == "form-1" }.first)
            let body = Bodies.json(rejected)
            #expect(body["reason"] as? String == "invalid-request")
            let message = try #require(body["message"] as? String)
            #expect(message.contains("cartId") && message.contains("quantity"))
            #expect(world.deadLetters.all.isEmpty)
        }
    }

    @Test func aRejectionOfFormHandlesItsIDSoAMendedBodyUnderItIsADuplicate() async throws {
        try await withWorld { world in
            try await world.send(.syncCart, Bodies.syncCart(items: [("SKU-RED-M", 0)]), messageID: "form-2", correlationID: "first")
            let first = try #require(try await world.events.wait { $0.properties.correlationID == "first" }.first)
            #expect(Bodies.json(first)["reason"] as? String == "invalid-request")

            try await world.send(.syncCart, Bodies.syncCart(), messageID: "form-2", correlationID: "mended")

            let mended = try #require(try await world.events.wait { $0.properties.correlationID == "mended" }.first)
            #expect(mended.properties.type == "cart.sync-rejected")
            #expect(Bodies.json(mended)["reason"] as? String == "duplicate-message-id")
        }
    }

    @Test func retriesATransientPaymentFailureThenRejectsItAndDeadLettersIt() async throws {
        try await withWorld { world in
            try await world.send(.syncCart, Bodies.syncCart(), messageID: "sync-1")
            try await world.events.wait { $0.properties.correlationID == "sync-1" }
            try await world.send(.placeOrder, Bodies.placeOrder(token: "tok_processingError"), messageID: "order-flaky")

            let rejected = try #require(try await world.events.wait { $0.properties.correlationID == "order-flaky" }.first)
            #expect(Bodies.json(rejected)["reason"] as? String == "payment-unavailable")
            try ContractSchemas.validate(rejected)
            let dead = try #require(try await world.deadLetters.wait().first)
            #expect(dead.properties.messageID == "order-flaky")
            #expect(dead.properties.headers?["x-error-reason"]?.stringValue == "retries-exhausted")
            #expect(dead.properties.headers?["x-retry-count"]?.intValue == 2)
            #expect(dead.properties.headers?["x-original-routing-key"]?.stringValue == "order.place")
        }
    }
}
