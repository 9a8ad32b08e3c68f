/// The payment processor's permanent refusal of a charge that is not a decline: an unknown or
/// unusable payment method, parameters it will not take, an idempotency key used for another request.
///
/// Retrying cannot change the answer, so the order is rejected at once (`payment-failed`) instead of
/// waiting through the retry ladder. Nothing was charged.
public struct PaymentFailure: Hashable, Codable, Sendable, CustomStringConvertible {
    /// The most characters of the processor's message kept: the account of a refusal is a sentence,
    /// and it goes into an event and a stored outcome, where a gateway's page of an answer does not belong.
    public static let maximumMessageLength = 1_000

    /// The processor's own account, for the customer's client; holds no secret.
    public let message: String

    /// - Parameter message: Cut to ``maximumMessageLength`` characters, the last an ellipsis, when longer.
    public init(message: String) {
        self.message = message.count > Self.maximumMessageLength ? message.prefix(Self.maximumMessageLength - 1) + "…" : message
    }

    public var description: String { message }
}
