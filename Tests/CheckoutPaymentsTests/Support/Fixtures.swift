import CheckoutDomain
import Foundation

/// A command id no other test uses, so tests can share a processor's ledger.
func uniqueCommandID(_ prefix: String = "cmd") throws -> CommandID {
    try CommandID("\(prefix)-\(UUID().uuidString.prefix(13))")
}

let visa = PaymentToken("tok_visa")

extension ChargeResult {
    var approvedPayment: Payment? {
        guard case .approved(let payment) = self else { return nil }
        return payment
    }

    var failure: PaymentFailure? {
        guard case .failed(let failure) = self else { return nil }
        return failure
    }
}
