public import CheckoutDomain
public import Foundation

/// The default payment processor: in-process and deterministic, answering the test tokens of the
/// contract, so the worker runs and is tested without a payment provider.
///
/// | token | answer |
/// |---|---|
/// | `tok_visa` | approved |
/// | `tok_chargeDeclined` | declined, `card_declined` |
/// | `tok_chargeDeclinedInsufficientFunds` | declined, `insufficient_funds` |
/// | `tok_processingError` | `RetryableError` (`payment-processor-unavailable`), every time |
/// | any other | declined, `unknown_token`: a client's mistake, reported to it as a decline |
///
/// Like a real gateway it keeps a ledger keyed by idempotency key: the first answer to a key is
/// kept and every repeat gets it again (a decline too) without charging; the same key with another
/// amount or token is refused for good, ``ChargeResult/failed(_:)``, as Stripe's `idempotency_error`. A transient
/// failure is not kept. ``charges`` and ``refunds`` show what was taken and given back.
public actor SandboxPaymentProcessor: PaymentProcessor {
    /// Every approved charge, one per idempotency key, in the order they were made.
    public private(set) var charges: [SandboxCharge] = []
    /// Every payment given back, once each, in the order they were refunded.
    public private(set) var refunds: [Payment] = []
    private var ledger: [CommandID: SandboxLedgerEntry] = [:]

    public init() {}

    /// The ledger answers at once.
    public nonisolated var searchLag: TimeInterval { 0 }

    public func charge(_ amount: Money, with token: PaymentToken, idempotencyKey: CommandID) throws -> ChargeResult {
        if let entry = ledger[idempotencyKey] {
            guard entry.amount == amount, entry.token == token else {
                return .failed(PaymentFailure(message: "the idempotency key \(idempotencyKey) was first used for another amount or token"))
            }
            return entry.result
        }
        let result: ChargeResult
        switch token.rawValue {
        case "tok_visa":
            let payment = Payment(id: PaymentID("sandbox_pay_\(idempotencyKey)"), amount: amount)
            charges.append(SandboxCharge(idempotencyKey: idempotencyKey, payment: payment))
            result = .approved(payment)
        case "tok_chargeDeclined":
            result = .declined(DeclineCode("card_declined"))
        case "tok_chargeDeclinedInsufficientFunds":
            result = .declined(DeclineCode("insufficient_funds"))
        case "tok_processingError":
            throw RetryableError(
                code: .paymentProcessorUnavailable, context: "charging \(amount) for command \(idempotencyKey): sandbox processing error")
        default:
            result = .declined(DeclineCode("unknown_token"))
        }
        ledger[idempotencyKey] = SandboxLedgerEntry(amount: amount, token: token, result: result)
        return result
    }

    /// Gives `payment` back once. A payment this process never made was made by another worker process
    /// (each keeps its own ledger, and its successor finishes its commands): it is given back all the same.
    public func refund(_ payment: Payment) {
        guard !refunds.contains(payment) else { return }
        refunds.append(payment)
    }

    public func refundCharge(madeWith idempotencyKey: CommandID) throws -> Payment? {
        guard case .approved(let payment) = ledger[idempotencyKey]?.result else { return nil }
        try refund(payment)
        return payment
    }
}
