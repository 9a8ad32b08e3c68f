import CheckoutDomain
import CheckoutTestSupport
import Testing

@testable import CheckoutPersistence

/// SQLite keeps each statement compiled for its connection's life. One it compiles again before every
/// run costs about what parsing it costs, which on the commands' path was a tenth of a worker's CPU.
@Suite struct SQLiteRecompilationTests {
    @Test func syncingAndOrderingCartsAgainAndAgainCompilesNoStatementTwice() async throws {
        try await TestDatabase.sqlite.withStore { store in
            _ = try await store.importCatalog([Fixtures.product("SKU-A", stock: 100), Fixtures.product("SKU-B", stock: 100)])
            let synced = SyncCartOutputSpy()
            let syncCart = SyncCartUseCase(store: store.syncCarts, output: synced, now: { Fixtures.now })
            let payments = PaymentProcessorSpy()
            await payments.answerCharges(with: .approve)
            let ordered = PlaceOrderOutputSpy()
            let placeOrder = Fixtures.placeOrder(over: store, payments: payments, output: ordered)
            // The migrations changed the schema after the connections had compiled statements of their own.
            let compiledAgainByTheMigrations = store.statistics.recompilations

            for cart in 1...4 {
                for version in 0..<2 {
                    try await syncCart.execute(
                        SyncCartRequest(
                            commandID: "sync-\(cart)-\(version)", cartID: "cart-\(cart)", customerID: "dana", baseVersion: version,
                            currency: "EUR", items: [RequestedItem(sku: "SKU-A", quantity: cart), RequestedItem(sku: "SKU-B", quantity: 1)])
                    )
                }
                try await placeOrder.execute(
                    PlaceOrderRequest(
                        commandID: "order-\(cart)", cartID: "cart-\(cart)", customerID: "dana", cartVersion: 2,
                        expectedTotal: Int64(cart + 1) * 1000, currency: "EUR", paymentToken: "tok_visa"))
            }

            #expect(await synced.messages.count == 8)
            #expect(await ordered.placedOrders.count == 4)
            #expect(store.statistics.recompilations == compiledAgainByTheMigrations)
        }
    }
}
