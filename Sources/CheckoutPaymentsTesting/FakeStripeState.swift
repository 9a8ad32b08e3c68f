import CheckoutObservability
/// Everything the fake Stripe remembers; guarded by ``FakeStripeAPI``'s lock.
struct FakeStripeState: Sendable {
    var charges: [FakeStripeCharge] = []
    var refunds: [FakeStripeRefund] = []
    var answers: [String: FakeStripeStoredAnswer] = [:]
    var random: SplitMix64

    var ledger: FakeStripeLedger { FakeStripeLedger(charges: charges, refunds: refunds) }

    mutating func addCharge(amount: Int64, currency: String, commandID: String?, idempotencyKey: String?) -> FakeStripeCharge {
        let charge = FakeStripeCharge(
            paymentIntentID: "pi_fake_\(charges.count + 1)",
            amount: amount,
            currency: currency,
            commandID: commandID,
            idempotencyKey: idempotencyKey,
            isRefunded: false
        )
        charges.append(charge)
        return charge
    }

    /// Refunds a charge that is not refunded yet.
    mutating func addRefund(of index: Int, idempotencyKey: String?) -> FakeStripeRefund {
        let charge = charges[index]
        charges[index] = FakeStripeCharge(
            paymentIntentID: charge.paymentIntentID,
            amount: charge.amount,
            currency: charge.currency,
            commandID: charge.commandID,
            idempotencyKey: charge.idempotencyKey,
            isRefunded: true
        )
        let refund = FakeStripeRefund(id: "re_fake_\(refunds.count + 1)", paymentIntentID: charge.paymentIntentID, amount: charge.amount, idempotencyKey: idempotencyKey)
        refunds.append(refund)
        return refund
    }
}
