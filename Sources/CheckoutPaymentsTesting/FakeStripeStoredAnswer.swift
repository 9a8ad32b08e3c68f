/// The answer kept for an `Idempotency-Key`, replayed to every repeat of the request that made it.
struct FakeStripeStoredAnswer: Sendable {
    /// The request that made it, to refuse the key for another one.
    let fingerprint: String
    let status: Int
    let body: String
}
