import Foundation
import CheckoutDomain

/// Refuses every charge for good, as a processor does an unknown payment method, and counts what it was asked.
actor RefusingPaymentProcessor: PaymentProcessor {
    nonisolated var searchLag: TimeInterval { 0 }

    private(set) var chargeCount = 0
    private(set) var refundCount = 0

    func charge(_ amount: Money, with token: PaymentToken, idempotencyKey: CommandID) -> ChargeResult {
        chargeCount += 1
        return .failed(PaymentFailure(message: "No such PaymentMethod: '\(token.rawValue)'"))
    }

    func refund(_ payment: Payment) {
        refundCount += 1
    }

    func refundCharge(madeWith idempotencyKey: CommandID) -> Payment? {
        refundCount += 1
        return nil
    }
}
