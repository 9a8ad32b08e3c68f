import Foundation
import CheckoutDomain

/// Approves every charge once per idempotency key and remembers what it charged and refunded.
actor ApprovingPaymentProcessor: PaymentProcessor {
    nonisolated var searchLag: TimeInterval { 0 }

    private(set) var charges: [CommandID: Payment] = [:]
    private(set) var refunds: Set<PaymentID> = []

    /// What was charged and not given back, in minor units.
    var netCharged: Int64 {
        charges.values.filter { !refunds.contains($0.id) }.map(\.amount.minorUnits).reduce(0, +)
    }

    func charge(_ amount: Money, with token: PaymentToken, idempotencyKey: CommandID) -> ChargeResult {
        let payment = charges[idempotencyKey] ?? Payment(id: PaymentID("pay-\(idempotencyKey)"), amount: amount)
        charges[idempotencyKey] = payment
        return .approved(payment)
    }

    func refund(_ payment: Payment) {
        refunds.insert(payment.id)
    }

    func refundCharge(madeWith idempotencyKey: CommandID) -> Payment? {
        guard let payment = charges[idempotencyKey] else { return nil }
        refunds.insert(payment.id)
        return payment
    }
}
