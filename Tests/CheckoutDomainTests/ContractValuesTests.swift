import CheckoutDomain
import CheckoutTestSupport
import Foundation
import Testing

/// The strings and the stored format that other services and repositories depend on.
@Suite struct ContractValuesTests {
    @Test func syncRejectionReasonsAreTheContractsStrings() {
        #expect(
            SyncCartRejectionReason.allCases.map(\.rawValue) == [
                "invalid-request", "version-conflict", "forbidden", "cart-checked-out", "duplicate-message-id", "unavailable",
            ])
    }

    @Test func orderRejectionReasonsAreTheContractsStrings() {
        #expect(
            PlaceOrderRejectionReason.allCases.map(\.rawValue) == [
                "invalid-request", "cart-not-found", "forbidden", "cart-checked-out", "cart-empty", "cart-changed",
                "price-changed", "out-of-stock", "payment-declined", "payment-failed", "order-failed", "duplicate-message-id",
                "unavailable",
                "payment-unavailable",
            ])
    }

    @Test func adjustmentReasonsAreTheContractsStrings() {
        #expect(AdjustmentReason.allCases.map(\.rawValue) == ["unknown-sku", "inactive-sku", "clamped-to-stock", "merged"])
    }

    @Test func syncOutcomeSurvivesJSON() throws {
        let outcome = SyncCartOutcome.synced(
            cart: SyncedCart(
                cart: cart(),
                adjustments: [Adjustment(sku: sku("SKU-X"), reason: .clampedToStock, requested: 5, applied: 2)]
            ))
        let decoded = try JSONDecoder().decode(SyncCartOutcome.self, from: JSONEncoder().encode(outcome))
        #expect(decoded == outcome)
    }

    @Test func orderOutcomesSurviveJSON() throws {
        let payment = Payment(id: PaymentID("pay_1"), amount: eur(5998))
        let outcomes: [PlaceOrderOutcome] = [
            .placed(
                order: Order(
                    id: OrderID(placedBy: commandID("cmd-1")),
                    cartID: cartID(),
                    customerID: customerID(),
                    lines: [line("SKU-RED-M", 2)],
                    total: eur(5998),
                    payment: payment,
                    placedAt: Date(timeIntervalSince1970: 1_800_000_000.123)
                )),
            .rejected(
                rejection: PlaceOrderRejection(
                    cartID: "cart-42", reason: .orderFailed, message: "m", skus: [sku("SKU-RED-M")],
                    declineCode: DeclineCode("card_declined"), refundedPayment: payment
                )),
        ]
        let decoded = try JSONDecoder().decode([PlaceOrderOutcome].self, from: JSONEncoder().encode(outcomes))
        #expect(decoded == outcomes)
    }

    @Test func finalPaymentFailureIsPaymentUnavailable() {
        let error = RetryableError(code: .paymentProcessorUnavailable, context: "charging")
        #expect(PlaceOrderRejection.unavailable(cartID: "cart-42", after: error).reason == .paymentUnavailable)
    }

    @Test func finalDatabaseFailureIsUnavailable() {
        let error = RetryableError(code: .databaseUnavailable, context: "loading cart")
        #expect(PlaceOrderRejection.unavailable(cartID: "cart-42", after: error).reason == .unavailable)
        #expect(SyncCartRejection.unavailable(cartID: "cart-42", after: error).reason == .unavailable)
    }

    @Test func retryableErrorKeepsTheServersTextOutOfItsDescription() {
        struct ServerSaid: Error { let text = "FATAL: password authentication failed" }
        let error = RetryableError(code: .databaseUnavailable, context: "loading cart cart-42", underlying: ServerSaid())
        #expect(error.description == "database-unavailable: loading cart cart-42")
        #expect(error.debugDescription.contains("password authentication failed"))
    }
}
