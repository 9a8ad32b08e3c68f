/// The payment processor's answer to a charge; a transient failure is thrown as ``RetryableError`` instead.
public enum ChargeResult: Hashable, Sendable {
    case approved(Payment)
    case declined(DeclineCode)
    /// Refused for good for a reason other than a decline; nothing was charged.
    case failed(PaymentFailure)
}
