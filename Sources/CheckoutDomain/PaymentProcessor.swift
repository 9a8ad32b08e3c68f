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
    /// first call's result and charges nothing, which makes a redelivered command safe. A processor
    /// may forget a key after a while (Stripe after 24 hours); what was charged then is
    /// ``findCharge(madeWith:)``'s.
    func charge(_ amount: Money, with token: PaymentToken, idempotencyKey: CommandID) async throws -> ChargeResult

    /// Gives back the whole payment. Idempotent: refunding a refunded payment succeeds and does nothing.
    func refund(_ payment: Payment) async throws

    /// The payment charged with `idempotencyKey`, if any, or nil when nothing was, or nothing the
    /// processor can see yet (``searchLag``).
    ///
    /// For an attempt whose answer was lost to a timeout or a crash: a command abandoned after it gives
    /// the charge back, one retried after the processor may have forgotten the key keeps it for its order.
    func findCharge(madeWith idempotencyKey: CommandID) async throws -> Payment?

    /// How long ``findCharge(madeWith:)`` may not see a charge after it was made, in seconds: a
    /// processor's search that is not read-after-write (Stripe's) is not believed sooner.
    var searchLag: TimeInterval { get }
}

extension PaymentProcessor {
    /// A processor that takes any token and answers the ones it cannot charge as declines or failures.
    public func validate(_ token: PaymentToken) throws(ValidationError) {}
}
