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
/// | any other | ``ChargeResult/failed(_:)``: an unknown payment method, `payment-failed` as the contract says |
///
/// Like a real gateway it keeps a ledger keyed by idempotency key: the first answer to a key is
/// kept and every repeat gets it again (a decline too) without charging; the same key with another
/// amount or token is refused for good, ``ChargeResult/failed(_:)``, as Stripe's `idempotency_error`. A transient
/// failure is not kept. ``charges`` and ``refunds`` show what was taken and given back.
///
/// The ledger and the refunds keep only their newest entries, so a worker left running on the default
/// processor does not grow with every order. An answer depends only on the token, the amount and the
/// key, so the repeat of a forgotten key gets the same answer (the same payment id); what is lost is
/// the refusal of another request under that key, which the worker's own digest check answers first.
public actor SandboxPaymentProcessor: PaymentProcessor {
    private var ledger: SandboxRecentEntries<CommandID, SandboxLedgerEntry>
    private var refunded: SandboxRecentEntries<Payment, Void>

    /// - Parameter capacity: Idempotency keys, and refunds, remembered: a few hundred bytes each, and
    ///   many times the commands a worker has in flight.
    public init(remembering capacity: Int = 10_000) {
        ledger = SandboxRecentEntries(capacity: capacity)
        refunded = SandboxRecentEntries(capacity: capacity)
    }

    /// The approved charges the ledger remembers, one per idempotency key, in the order they were made.
    public var charges: [SandboxCharge] {
        ledger.entries.compactMap { key, entry in
            guard case .approved(let payment) = entry.result else { return nil }
            return SandboxCharge(idempotencyKey: key, payment: payment)
        }
    }

    /// The payments given back that it remembers, once each, in the order they were refunded.
    public var refunds: [Payment] {
        refunded.entries.map(\.key)
    }

    /// The answer to a token it does not know, naming the ones it does.
    static let unknownTokenMessage =
        "No such token: the sandbox processor takes tok_visa, tok_chargeDeclined, tok_chargeDeclinedInsufficientFunds and tok_processingError"

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
            result = .approved(Payment(id: PaymentID("sandbox_pay_\(idempotencyKey)"), amount: amount))
        case "tok_chargeDeclined":
            result = .declined(DeclineCode("card_declined"))
        case "tok_chargeDeclinedInsufficientFunds":
            result = .declined(DeclineCode("insufficient_funds"))
        case "tok_processingError":
            throw RetryableError(
                code: .paymentProcessorUnavailable, context: "charging \(amount) for command \(idempotencyKey): sandbox processing error")
        default:
            // Not echoed: a token is a credential (see `PaymentToken`), and this one may be a real card's.
            result = .failed(PaymentFailure(message: Self.unknownTokenMessage))
        }
        ledger.insert(SandboxLedgerEntry(amount: amount, token: token, result: result), for: idempotencyKey)
        return result
    }

    /// Gives `payment` back once. A payment this process never made was made by another worker process
    /// (each keeps its own ledger, and its successor finishes its commands): it is given back all the same.
    public func refund(_ payment: Payment) {
        refunded.insert((), for: payment)
    }

    public func findCharge(madeWith idempotencyKey: CommandID) -> Payment? {
        guard case .approved(let payment) = ledger[idempotencyKey]?.result else { return nil }
        return payment
    }
}
