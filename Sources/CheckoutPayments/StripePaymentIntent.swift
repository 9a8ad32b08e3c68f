/// The fields of a Stripe PaymentIntent the adapter reads.
struct StripePaymentIntent: Decodable {
    let id: String
    /// In the currency's smallest unit, as the worker's `Money`.
    let amount: Int64
    /// Lowercase ISO 4217 code.
    let currency: String
    /// `succeeded` once the money is taken; `requires_action` when the card wants 3-D Secure.
    let status: String
    /// What the charge was made with: `command_id`, its command's id.
    let metadata: [String: String]?
}
