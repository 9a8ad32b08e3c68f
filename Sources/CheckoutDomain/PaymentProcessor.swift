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
}
