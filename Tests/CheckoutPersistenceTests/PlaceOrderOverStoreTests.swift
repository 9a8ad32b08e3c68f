import CheckoutDomain
import CheckoutTestSupport
import Foundation
import Testing

@testable import CheckoutPersistence

/// The use case over a real store: the guarantees the issue asks of persistence, seen end to end.
@Suite struct PlaceOrderOverStoreTests {
    @Test(arguments: TestDatabase.allCases)
    func twoWorkersOrderingTheLastUnitPlaceOneOrderAndKeepNoOtherMoney(database: TestDatabase) async throws {
        try await database.withStore { store in
            _ = try await store.importCatalog([Fixtures.product("SKU-LAST", price: 8999, stock: 1)])
            for customer in ["alice", "bob"] {
                let cart = Fixtures.cart(
                    cartID("cart-\(customer)"), lines: [Fixtures.line("SKU-LAST", price: 8999)], customer: customerID(customer))
                _ = try await store.syncCarts.record(Fixtures.synced(cart), digest: nil, for: Fixtures.command())
            }
            let payments = PaymentProcessorSpy()
            await payments.answerCharges(with: .approve)
            let output = PlaceOrderOutputSpy()
            let useCase = Fixtures.placeOrder(over: store, payments: payments, output: output)

            try await withThrowingTaskGroup(of: Void.self) { group in
                for customer in ["alice", "bob"] {
                    group.addTask {
                        try await useCase.execute(
                            PlaceOrderRequest(
                                commandID: "order-\(customer)", cartID: "cart-\(customer)", customerID: customer,
                                cartVersion: 1, expectedTotal: 8999, currency: "EUR", paymentToken: "tok_visa"
                            ))
                    }
                }
                try await group.waitForAll()
            }

            #expect(await output.placedOrders.count == 1)
            #expect(await output.rejectionReasons.filter { $0 == .outOfStock || $0 == .orderFailed }.count == 1)
            #expect(await payments.netCharged == 8999)
            #expect(try await store.catalog.products([sku("SKU-LAST")]).values.first?.stock == 0)
        }
    }

    /// Every attempt lets go of its claim in this process as it ends, placed or rejected: a claim still
    /// marked as held would never be taken over by its own worker, and the marks would pile up.
    @Test(arguments: TestDatabase.sql)
    func noAttemptHoldsAClaimOnceItsOrderIsPlacedOrRejected(database: TestDatabase) async throws {
        try await database.withStore { store in
            try await Fixtures.seedOneLineCart("cart-held", of: "carol", selling: "SKU-A", price: 1000, stock: 5, in: store)
            let payments = PaymentProcessorSpy()
            await payments.answerCharges(with: .approve)
            let output = PlaceOrderOutputSpy()
            let useCase = Fixtures.placeOrder(over: store, payments: payments, output: output)

            for id in ["order-placed", "order-after-checkout"] {
                try await useCase.execute(
                    PlaceOrderRequest(
                        commandID: id, cartID: "cart-held", customerID: "carol", cartVersion: 1, expectedTotal: 1000, currency: "EUR",
                        paymentToken: "tok_visa"))
            }

            #expect(await output.placedOrders.count == 1)
            #expect(await output.rejectionReasons == [.cartCheckedOut])
            let orders = try #require(store.orders as? SQLOrders)
            #expect(orders.commands.owner.heldClaims.isEmpty)
        }
    }
}
