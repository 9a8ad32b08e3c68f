import CheckoutDomain
import CheckoutPersistence
import CheckoutTestSupport
import Foundation
import Testing

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
}
