import CheckoutMessaging
import Foundation
import RabbitMQ
import Testing

/// CONTRACT.md's command rules that need earlier state (another customer's cart, a checked-out
/// cart, scarce stock), checked on the wire: publish the commands, read the events.
@Suite(.serialized) struct CommandRuleTests {
    @Test func adjustsUnknownInactiveOverStockAndRepeatedSKUsAndListsEveryChange() async throws {
        try await withWorld { world in
            let items = [("SKU-RED-M", 2), ("SKU-NOPE", 1), ("SKU-GONE", 1), ("SKU-LAST", 3), ("SKU-RED-M", 98)]
            let synced = try await Self.result(of: .syncCart, Bodies.syncCart(items: items), id: "sync-adjust", in: world)

            #expect(synced.properties.type == "cart.synced")
            let body = Bodies.json(synced)
            let lines = (body["items"] as? [[String: Any]] ?? []).map { Line(sku: $0["sku"] as? String, quantity: $0["quantity"] as? Int) }
            #expect(Set(lines) == [Line(sku: "SKU-RED-M", quantity: 10), Line(sku: "SKU-LAST", quantity: 1)])
            let adjustments = (body["adjustments"] as? [[String: Any]] ?? []).map {
                Adjustment(
                    sku: $0["sku"] as? String, reason: $0["reason"] as? String, requested: $0["requested"] as? Int,
                    applied: $0["applied"] as? Int)
            }
            #expect(
                Set(adjustments) == [
                    Adjustment(sku: "SKU-NOPE", reason: "unknown-sku", requested: 1, applied: 0),
                    Adjustment(sku: "SKU-GONE", reason: "inactive-sku", requested: 1, applied: 0),
                    Adjustment(sku: "SKU-LAST", reason: "clamped-to-stock", requested: 3, applied: 1),
                    Adjustment(sku: "SKU-RED-M", reason: "merged", requested: 100, applied: 99),
                    Adjustment(sku: "SKU-RED-M", reason: "clamped-to-stock", requested: 99, applied: 10),
                ])
            #expect(body["subtotal"] as? Int == 10 * 2999 + 500)
            try ContractSchemas.validate(synced)
        }
    }

    @Test func rejectsASyncOfAnotherCustomersCartAsForbidden() async throws {
        try await withWorld { world in
            _ = try await Self.result(of: .syncCart, Bodies.syncCart(), id: "sync-owner", in: world)
            let rejected = try await Self.result(
                of: .syncCart, Bodies.syncCart(customer: "cust-8", baseVersion: 1), id: "sync-intruder", in: world)

            #expect(rejected.properties.type == "cart.sync-rejected")
            #expect(Bodies.json(rejected)["reason"] as? String == "forbidden")
            try ContractSchemas.validate(rejected)
        }
    }

    @Test func rejectsASyncAndASecondOrderOfACheckedOutCart() async throws {
        try await withWorld { world in
            _ = try await Self.result(of: .syncCart, Bodies.syncCart(), id: "sync-1", in: world)
            let placed = try await Self.result(of: .placeOrder, Bodies.placeOrder(), id: "order-1", in: world)
            #expect(placed.properties.type == "order.placed")

            let lateSync = try await Self.result(of: .syncCart, Bodies.syncCart(baseVersion: 1), id: "sync-late", in: world)
            #expect(lateSync.properties.type == "cart.sync-rejected")
            #expect(Bodies.json(lateSync)["reason"] as? String == "cart-checked-out")
            try ContractSchemas.validate(lateSync)

            let secondOrder = try await Self.result(of: .placeOrder, Bodies.placeOrder(), id: "order-2", in: world)
            #expect(secondOrder.properties.type == "order.rejected")
            #expect(Bodies.json(secondOrder)["reason"] as? String == "cart-checked-out")
            try ContractSchemas.validate(secondOrder)
        }
    }

    @Test func rejectsAnOrderForACartWhoseEveryLineWasDroppedAsEmpty() async throws {
        try await withWorld { world in
            let synced = try await Self.result(of: .syncCart, Bodies.syncCart(items: [("SKU-NOPE", 1)]), id: "sync-empty", in: world)
            #expect(synced.properties.type == "cart.synced")
            #expect((Bodies.json(synced)["items"] as? [Any])?.isEmpty == true)

            let rejected = try await Self.result(of: .placeOrder, Bodies.placeOrder(expectedTotal: 0), id: "order-empty", in: world)
            #expect(rejected.properties.type == "order.rejected")
            #expect(Bodies.json(rejected)["reason"] as? String == "cart-empty")
            try ContractSchemas.validate(rejected)
        }
    }

    @Test func theSecondOrderForTheLastUnitIsOutOfStockNamingTheSKU() async throws {
        try await withWorld { world in
            for cart in ["cart-a", "cart-b"] {
                _ = try await Self.result(
                    of: .syncCart, Bodies.syncCart(cart: cart, items: [("SKU-LAST", 1)]), id: "sync-\(cart)", in: world)
            }
            let first = try await Self.result(
                of: .placeOrder, Bodies.placeOrder(cart: "cart-a", expectedTotal: 500), id: "order-a", in: world)
            let second = try await Self.result(
                of: .placeOrder, Bodies.placeOrder(cart: "cart-b", expectedTotal: 500), id: "order-b", in: world)

            #expect(first.properties.type == "order.placed")
            #expect(second.properties.type == "order.rejected")
            let body = Bodies.json(second)
            #expect(body["reason"] as? String == "out-of-stock")
            #expect(body["skus"] as? [String] == ["SKU-LAST"])
            try ContractSchemas.validate(second)
        }
    }

    /// Publishes one command and waits for its result event.
    private static func result(of kind: CommandKind, _ body: String, id: String, in world: TestWorld) async throws -> AMQPDelivery {
        try await world.send(kind, body, messageID: id)
        return try #require(try await world.events.wait { $0.properties.correlationID == id }.first)
    }

    private struct Line: Hashable {
        let sku: String?
        let quantity: Int?
    }

    private struct Adjustment: Hashable {
        let sku: String?
        let reason: String?
        let requested: Int?
        let applied: Int?
    }
}
