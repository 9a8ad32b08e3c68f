/// The payment processor's permanent refusal of a charge that is not a decline: an unknown or
/// unusable payment method, parameters it will not take, an idempotency key used for another request.
///
/// Retrying cannot change the answer, so the order is rejected at once (`payment-failed`) instead of
/// waiting through the retry ladder. Nothing was charged.
public struct PaymentFailure: Hashable, Codable, Sendable, CustomStringConvertible {
    /// The processor's own account, for the customer's client; holds no secret.
    public let message: String

    public init(message: String) {
        self.message = message
    }

    public var description: String { message }
}
