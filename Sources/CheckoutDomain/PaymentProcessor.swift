public import Foundation

/// Takes and gives back customers' money.
///
/// Transient failures are thrown as ``RetryableError`` with code
/// ``RetryableError/Code/paymentProcessorUnavailable``, so a final failure is `payment-unavailable`.
/// A permanent refusal is an answer, ``ChargeResult/declined(_:)`` or ``ChargeResult/failed(_:)``,
/// so the order is rejected at once instead of being retried.
public protocol PaymentProcessor: Sendable {
    /// Checks the form of a payment token before anything else is done with the command, so a token
    /// the processor can never charge is answered as `invalid-request` with the other rules of form.
    ///
    /// Throws ``ValidationError`` with code ``ValidationError/Code/invalidPaymentMethod``, its reason
    /// completing a sentence that starts with the field's name.
    func validate(_ token: PaymentToken) throws(ValidationError)

    /// Charges `amount` once per `idempotencyKey`: a second call with the same key returns the
    /// first call's result and charges nothing, which makes a redelivered command safe.
    func charge(_ amount: Money, with token: PaymentToken, idempotencyKey: CommandID) async throws -> ChargeResult

    /// Gives back the whole payment. Idempotent: refunding a refunded payment succeeds and does nothing.
    func refund(_ payment: Payment) async throws

    /// Gives back whatever was charged with `idempotencyKey`, if anything, and returns that payment.
    ///
    /// For a command abandoned after an attempt that may have charged (its answer lost to a timeout
    /// or a crash): without it, the money would stay taken with no order. Idempotent, like ``refund(_:)``.
    func refundCharge(madeWith idempotencyKey: CommandID) async throws -> Payment?

    /// How long ``refundCharge(madeWith:)`` may not see a charge after it was made, in seconds: a
    /// processor's search that is not read-after-write (Stripe's) is not believed sooner.
    var searchLag: TimeInterval { get }
}

extension PaymentProcessor {
    /// A processor that takes any token and answers the ones it cannot charge as declines or failures.
    public func validate(_ token: PaymentToken) throws(ValidationError) {}
}
