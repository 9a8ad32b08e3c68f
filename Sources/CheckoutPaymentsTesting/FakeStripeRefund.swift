/// A refund the fake Stripe made: money it gave back.
public struct FakeStripeRefund: Hashable, Sendable {
    /// `re_…`
    public let id: String
    public let paymentIntentID: String
    public let amount: Int64
    /// The `Idempotency-Key` header of the request, if it had one.
    public let idempotencyKey: String?
}
