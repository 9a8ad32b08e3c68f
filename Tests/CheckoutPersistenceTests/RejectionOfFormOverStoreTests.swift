import CheckoutDomain
import CheckoutPersistence
import CheckoutTestSupport
import Foundation
import Testing

/// A command rejected as `invalid-request`, over a real store: its id is handled, so the same body
/// is answered again and another body under that id is a duplicate.
@Suite struct RejectionOfFormOverStoreTests {
    @Test(arguments: TestDatabase.allCases)
    func aSyncMendedUnderTheIDOfARejectionOfFormIsADuplicate(database: TestDatabase) async throws {
        try await database.withStore { store in
            _ = try await store.importCatalog([Fixtures.product("SKU-RED-M")])
            let output = SyncCartOutputSpy()
            let useCase = SyncCartUseCase(store: store.syncCarts, output: output, now: Date.init)
            let invalid = sync(quantity: 0, digest: "aaa")

            try await useCase.execute(invalid)
            try await useCase.execute(sync(quantity: 1, digest: "bbb"))
            try await useCase.execute(invalid)

            #expect(await output.rejectionReasons == [.invalidRequest, .duplicateMessageID, .invalidRequest])
            #expect(try await store.carts.cart(cartID("cart-42")) == nil)
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func anOrderMendedUnderTheIDOfARejectionOfFormIsADuplicateAndChargesNothing(database: TestDatabase) async throws {
        try await database.withStore { store in
            try await Fixtures.seedOneLineCart("cart-42", of: "cust-7", selling: "SKU-RED-M", price: 2999, stock: 5, in: store)
            let payments = PaymentProcessorSpy()
            await payments.answerCharges(with: .approve)
            let output = PlaceOrderOutputSpy()
            let useCase = Fixtures.placeOrder(over: store, payments: payments, output: output)
            let invalid = order(currency: "EURO", digest: "aaa")

            try await useCase.execute(invalid)
            try await useCase.execute(order(currency: "EUR", digest: "bbb"))
            try await useCase.execute(invalid)

            #expect(await output.rejectionReasons == [.invalidRequest, .duplicateMessageID, .invalidRequest])
            #expect(await payments.charges.isEmpty)
            #expect(try await store.carts.cart(cartID("cart-42"))?.isCheckedOut == false)
        }
    }

    private func sync(quantity: Int, digest: String) -> SyncCartRequest {
        SyncCartRequest(
            commandID: "form-1", cartID: "cart-42", customerID: "cust-7", baseVersion: 0, currency: "EUR",
            items: [RequestedItem(sku: "SKU-RED-M", quantity: quantity)], digest: CommandDigest(digest))
    }

    private func order(currency: String, digest: String) -> PlaceOrderRequest {
        PlaceOrderRequest(
            commandID: "form-1", cartID: "cart-42", customerID: "cust-7", cartVersion: 1, expectedTotal: 2999, currency: currency,
            paymentToken: "tok_visa", digest: CommandDigest(digest))
    }
}
