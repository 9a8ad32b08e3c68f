/// A PaymentMethod the fake Stripe made from a card token (`POST /v1/payment_methods` with `card[token]`).
public struct FakeStripePaymentMethod: Hashable, Sendable {
    /// `pm_…`
    public let id: String
    /// The ``FakeStripeToken`` it was made from, whose script its charges follow.
    public let cardToken: String
    /// The `Idempotency-Key` header of the request, if it had one.
    public let idempotencyKey: String?
}
