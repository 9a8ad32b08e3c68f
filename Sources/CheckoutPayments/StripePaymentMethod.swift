/// The fields of a Stripe PaymentMethod the adapter reads: its id, to charge it.
struct StripePaymentMethod: Decodable {
    /// `pm_…`
    let id: String
}
