import CheckoutDomain
import CheckoutPersistence
import CheckoutTestSupport
import Foundation
import Testing

/// A `message_id` names one command whatever its type, over a real store: a sync and an order
/// under one id are two commands, and the second is answered `duplicate-message-id`.
@Suite struct OneIDSpaceOverStoreTests {
    @Test(arguments: TestDatabase.allCases)
    func anOrderUnderTheIDOfASyncIsADuplicateAndChargesNothing(database: TestDatabase) async throws {
        try await database.withStore { store in
            try await Fixtures.seedOneLineCart("cart-42", of: "cust-7", selling: "SKU-RED-M", price: 2999, stock: 5, in: store)
            let syncOutput = SyncCartOutputSpy()
            try await SyncCartUseCase(store: store.syncCarts, output: syncOutput, now: Date.init).execute(sync(baseVersion: 1))
            let payments = PaymentProcessorSpy()
            await payments.answerCharges(with: .approve)
            let output = PlaceOrderOutputSpy()

            try await Fixtures.placeOrder(over: store, payments: payments, output: output).execute(order(cartVersion: 2))

            #expect(await syncOutput.messages.count == 1)
            #expect(await syncOutput.rejectionReasons.isEmpty)
            #expect(await output.rejectionReasons == [.duplicateMessageID])
            #expect(await payments.messages.isEmpty)
            #expect(try await store.carts.cart(cartID("cart-42"))?.isCheckedOut == false)
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func aSyncUnderTheIDOfAnOrderIsADuplicateAndChangesNoCart(database: TestDatabase) async throws {
        try await database.withStore { store in
            try await Fixtures.seedOneLineCart("cart-42", of: "cust-7", selling: "SKU-RED-M", price: 2999, stock: 5, in: store)
            let payments = PaymentProcessorSpy()
            await payments.answerCharges(with: .approve)
            let orderOutput = PlaceOrderOutputSpy()
            try await Fixtures.placeOrder(over: store, payments: payments, output: orderOutput).execute(order(cartVersion: 1))
            let output = SyncCartOutputSpy()

            for baseVersion in [0, 1] {
                try await SyncCartUseCase(store: store.syncCarts, output: output, now: Date.init).execute(sync(baseVersion: baseVersion))
            }

            #expect(await orderOutput.placedOrders.count == 1)
            #expect(await output.rejectionReasons == [.duplicateMessageID, .duplicateMessageID])
            #expect(try await store.carts.cart(cartID("cart-42"))?.version == 1)
        }
    }

    private func sync(baseVersion: Int) -> SyncCartRequest {
        SyncCartRequest(
            commandID: "shared-1", cartID: "cart-42", customerID: "cust-7", baseVersion: baseVersion, currency: "EUR",
            items: [RequestedItem(sku: "SKU-RED-M", quantity: 1)], digest: CommandDigest("sync"))
    }

    private func order(cartVersion: Int) -> PlaceOrderRequest {
        PlaceOrderRequest(
            commandID: "shared-1", cartID: "cart-42", customerID: "cust-7", cartVersion: cartVersion, expectedTotal: 2999, currency: "EUR",
            paymentToken: "tok_visa", digest: CommandDigest("order"))
    }
}
