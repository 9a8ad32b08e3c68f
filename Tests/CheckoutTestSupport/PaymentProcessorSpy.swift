public import CheckoutDomain
public import Foundation

/// A payment processor that answers as the test says, honours idempotency keys like a real one,
/// and records every call.
public actor PaymentProcessorSpy: PaymentProcessor {
    public nonisolated var searchLag: TimeInterval { 60 }

    public enum Message: Equatable, Sendable {
        case charge(Money, token: String, idempotencyKey: CommandID)
        case refund(Payment)
        case refundCharge(idempotencyKey: CommandID)
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
    /// The money actually taken: one entry per idempotency key that was approved.
    public private(set) var payments: [CommandID: Payment] = [:]
    /// The payments given back by a refund that succeeded.
    private var refunded: Set<PaymentID> = []
    private var answer: Answer?
    private var failingRefunds = 0
    /// The tokens ``validate(_:)`` refuses, as a processor that can never charge tokens of their form.
    private nonisolated let tokensOfInvalidForm: Set<String>

    public init(refusingTheFormOf tokensOfInvalidForm: Set<String> = []) {
        self.tokensOfInvalidForm = tokensOfInvalidForm
    }

    /// Answers every new charge with `answer`.
    public func answerCharges(with answer: Answer) {
        self.answer = answer
    }

    /// Fails the next `count` refunds transiently.
    public func failRefunds(_ count: Int) {
        failingRefunds = count
    }

    /// What was charged and not given back, in minor units.
    public var netCharged: Int64 {
        payments.values.filter { !refunded.contains($0.id) }.map(\.amount.minorUnits).reduce(0, +)
    }

    public var charges: [Message] { messages.filter { if case .charge = $0 { true } else { false } } }
    public var refunds: [Message] {
        messages.filter {
            switch $0 {
            case .refund, .refundCharge: true
            case .charge: false
            }
        }
    }

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
            let payment = Payment(id: PaymentID("pay_\(idempotencyKey)"), amount: amount)
            payments[idempotencyKey] = payment
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

    public func refundCharge(madeWith idempotencyKey: CommandID) async throws -> Payment? {
        messages.append(.refundCharge(idempotencyKey: idempotencyKey))
        guard failingRefunds == 0 else {
            failingRefunds -= 1
            throw RetryableError(code: .paymentProcessorUnavailable, context: "refunding the charge of \(idempotencyKey)")
        }
        guard let payment = payments[idempotencyKey] else { return nil }
        refunded.insert(payment.id)
        return payment
    }
}
