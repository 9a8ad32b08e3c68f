import CheckoutDomain
import CheckoutPersistence
import CheckoutTestSupport
import Testing

/// A payment refused for good, over a real store: answered in the handling that met it, and answered
/// the same on a redelivery without asking the processor again.
@Suite struct RefusedPaymentOverStoreTests {
    @Test(arguments: TestDatabase.allCases)
    func aRefusedPaymentIsAnsweredAtOnceAsPaymentFailedAndRecorded(database: TestDatabase) async throws {
        try await database.withStore { store in
            try await Fixtures.seedOneLineCart("cart-42", of: "cust-7", selling: "SKU-RED-M", price: 2999, stock: 5, in: store)
            let payments = PaymentProcessorSpy()
            await payments.answerCharges(with: .refuse("No such PaymentMethod: 'pm_gone'"))
            let output = PlaceOrderOutputSpy()
            let useCase = Fixtures.placeOrder(over: store, payments: payments, output: output)
            let request = PlaceOrderRequest(
                commandID: "order-1", cartID: "cart-42", customerID: "cust-7",
                cartVersion: 1, expectedTotal: 2999, currency: "EUR", paymentToken: "pm_gone"
            )

            try await useCase.execute(request)
            try await useCase.execute(request)

            #expect(await output.rejectionReasons == [.paymentFailed, .paymentFailed])
            #expect(await output.messages.count == 2)
            #expect(await payments.charges.count == 1)
            #expect(await payments.refunds.isEmpty)
            #expect(try await store.carts.cart(cartID("cart-42"))?.isCheckedOut == false)
        }
    }
}
