/// The payment processor's answer to a charge; a transient failure is thrown as ``RetryableError`` instead.
public enum ChargeResult: Hashable, Sendable {
    case approved(Payment)
    case declined(DeclineCode)
}
