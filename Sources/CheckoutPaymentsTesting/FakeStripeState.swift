import CheckoutObservability

/// Everything the fake Stripe remembers; guarded by ``FakeStripeAPI``'s lock.
struct FakeStripeState: Sendable {
    var charges: [FakeStripeCharge] = []
    var refunds: [FakeStripeRefund] = []
    var paymentMethods: [FakeStripePaymentMethod] = []
    /// When each PaymentIntent (by id) was made, for the search's lag.
    var chargedAt: [String: ContinuousClock.Instant] = [:]
    var requestCount = 0
    var answers: [String: FakeStripeStoredAnswer] = [:]
    var random: SplitMix64

    var ledger: FakeStripeLedger {
        FakeStripeLedger(charges: charges, refunds: refunds, paymentMethods: paymentMethods, requestCount: requestCount)
    }

    mutating func addCharge(
        amount: Int64, currency: String, paymentMethod: String, commandID: String?, request: FakeStripeRequest
    ) -> FakeStripeCharge {
        let charge = FakeStripeCharge(
            paymentIntentID: "pi_fake_\(charges.count + 1)",
            amount: amount,
            currency: currency,
            commandID: commandID,
            paymentMethod: paymentMethod,
            idempotencyKey: request.idempotencyKey,
            stripeVersion: request.stripeVersion,
            isRefunded: false
        )
        charges.append(charge)
        chargedAt[charge.paymentIntentID] = .now
        return charge
    }

    mutating func addPaymentMethod(from cardToken: String, idempotencyKey: String?) -> FakeStripePaymentMethod {
        let method = FakeStripePaymentMethod(
            id: "pm_fake_\(paymentMethods.count + 1)", cardToken: cardToken, idempotencyKey: idempotencyKey)
        paymentMethods.append(method)
        return method
    }

    /// Refunds a charge that is not refunded yet.
    mutating func addRefund(of index: Int, idempotencyKey: String?) -> FakeStripeRefund {
        let charge = charges[index]
        charges[index] = FakeStripeCharge(
            paymentIntentID: charge.paymentIntentID,
            amount: charge.amount,
            currency: charge.currency,
            commandID: charge.commandID,
            paymentMethod: charge.paymentMethod,
            idempotencyKey: charge.idempotencyKey,
            stripeVersion: charge.stripeVersion,
            isRefunded: true
        )
        let refund = FakeStripeRefund(
            id: "re_fake_\(refunds.count + 1)", paymentIntentID: charge.paymentIntentID, amount: charge.amount,
            idempotencyKey: idempotencyKey)
        refunds.append(refund)
        return refund
    }
}
