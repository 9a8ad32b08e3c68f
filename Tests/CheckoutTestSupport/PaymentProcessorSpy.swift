public import CheckoutDomain
public import Foundation

/// A payment processor that answers as the test says, honours idempotency keys like a real one,
/// and records every call.
public actor PaymentProcessorSpy: PaymentProcessor {
    public nonisolated var searchLag: TimeInterval { 60 }

    public enum Message: Equatable, Sendable {
        case charge(Money, token: String, idempotencyKey: CommandID)
        case refund(Payment)
        case findCharge(idempotencyKey: CommandID)
    }

    /// How the processor answers a new idempotency key.
    public enum Answer: Sendable {
        case approve
        case decline(DeclineCode)
        /// A permanent refusal other than a decline, with the processor's message.
        case refuse(String)
        case fail
    }

    public private(set) var messages: [Message] = []
    /// The approved charges whose idempotency keys it remembers: a repeat of the key gets the payment again.
    public private(set) var payments: [CommandID: Payment] = [:]
    /// The money actually taken, in order: one entry per approved charge, also of a key it forgot since.
    public private(set) var taken: [(key: CommandID, payment: Payment)] = []
    /// The payments given back by a refund that succeeded.
    private var refunded: Set<PaymentID> = []
    private var answer: Answer?
    private var failingRefunds = 0
    private var searchFailure: (any Error)?
    /// The tokens ``validate(_:)`` refuses, as a processor that can never charge tokens of their form.
    private nonisolated let tokensOfInvalidForm: Set<String>

    public init(refusingTheFormOf tokensOfInvalidForm: Set<String> = []) {
        self.tokensOfInvalidForm = tokensOfInvalidForm
    }

    /// Answers every new charge with `answer`.
    public func answerCharges(with answer: Answer) {
        self.answer = answer
    }

    /// Fails every ``findCharge(madeWith:)`` with `error`.
    public func failSearches(with error: any Error) {
        searchFailure = error
    }

    /// Fails the next `count` refunds transiently.
    public func failRefunds(_ count: Int) {
        failingRefunds = count
    }

    /// Forgets every idempotency key, as Stripe does a day after a key's first use: a charge under one of
    /// them takes money again, while ``findCharge(madeWith:)`` still finds the earlier charge.
    public func forgetIdempotencyKeys() {
        payments = [:]
    }

    /// What was charged and not given back, in minor units.
    public var netCharged: Int64 {
        taken.map(\.payment).filter { !refunded.contains($0.id) }.map(\.amount.minorUnits).reduce(0, +)
    }

    public var charges: [Message] { messages.filter { if case .charge = $0 { true } else { false } } }
    public var refunds: [Message] { messages.filter { if case .refund = $0 { true } else { false } } }
    public var searches: [Message] { messages.filter { if case .findCharge = $0 { true } else { false } } }

    public nonisolated func validate(_ token: PaymentToken) throws(ValidationError) {
        guard !tokensOfInvalidForm.contains(token.rawValue) else {
            throw ValidationError(code: .invalidPaymentMethod, reason: "is not a payment method this processor takes")
        }
    }

    public func charge(_ amount: Money, with token: PaymentToken, idempotencyKey: CommandID) async throws -> ChargeResult {
        messages.append(.charge(amount, token: token.rawValue, idempotencyKey: idempotencyKey))
        if let payment = payments[idempotencyKey] {
            return .approved(payment)
        }
        switch answer {
        case .approve:
            let earlier = taken.count { $0.key == idempotencyKey }
            let payment = Payment(id: PaymentID("pay_\(idempotencyKey)" + (earlier == 0 ? "" : "_\(earlier + 1)")), amount: amount)
            payments[idempotencyKey] = payment
            taken.append((idempotencyKey, payment))
            return .approved(payment)
        case .decline(let code):
            return .declined(code)
        case .refuse(let message):
            return .failed(PaymentFailure(message: message))
        case .fail:
            throw RetryableError(code: .paymentProcessorUnavailable, context: "charging \(amount)")
        case nil:
            throw UnconfiguredFake("charge(\(amount)) called but no answer was set")
        }
    }

    public func refund(_ payment: Payment) async throws {
        messages.append(.refund(payment))
        guard failingRefunds == 0 else {
            failingRefunds -= 1
            throw RetryableError(code: .paymentProcessorUnavailable, context: "refunding \(payment.id)")
        }
        refunded.insert(payment.id)
    }

    public func findCharge(madeWith idempotencyKey: CommandID) async throws -> Payment? {
        messages.append(.findCharge(idempotencyKey: idempotencyKey))
        if let searchFailure { throw searchFailure }
        return taken.first { $0.key == idempotencyKey }?.payment
    }
}
