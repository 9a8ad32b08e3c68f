/// Takes and gives back customers' money.
///
/// Transient failures are thrown as ``RetryableError`` with code
/// ``RetryableError/Code/paymentProcessorUnavailable``, so a final failure is `payment-unavailable`.
public protocol PaymentProcessor: Sendable {
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
}
