/// A PaymentIntent the fake Stripe confirmed: money it took.
public struct FakeStripeCharge: Hashable, Sendable {
    /// `pi_…`
    public let paymentIntentID: String
    /// In the currency's smallest unit.
    public let amount: Int64
    /// Lowercase, as Stripe takes it.
    public let currency: String
    /// `metadata[command_id]` of the request, if it had one.
    public let commandID: String?
    /// The `payment_method` charged: `pm_…`.
    public let paymentMethod: String
    /// The `Idempotency-Key` header of the request, if it had one.
    public let idempotencyKey: String?
    /// The `Stripe-Version` header of the request, if it had one.
    public let stripeVersion: String?
    public let isRefunded: Bool
}
