/// A page of `GET /v1/payment_intents/search`.
struct StripeSearchResult: Decodable {
    let data: [StripePaymentIntent]
}
