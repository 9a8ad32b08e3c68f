/// How a ``FakeStripeServer`` behaves beyond its scripted tokens.
public struct FakeStripeOptions: Sendable {
    /// The secret key requests must carry as `Authorization: Bearer …`; any other gets 401.
    public var apiKey: String
    /// How late ``FakeStripeToken/slow`` and ``FakeStripeToken/timeoutAfterCharge`` answer:
    /// longer than the client's read timeout.
    public var slowAnswerDelay: Duration
    /// How often ``FakeStripeToken/trickledAnswer`` sends a byte of its answer: sooner than the
    /// client's read timeout, so only a bound on the whole answer ends the wait.
    public var trickleInterval: Duration
    /// The share of requests, from 0 to 1, that fail transiently, for chaos runs: half of them
    /// answer 503 before doing anything, the other half do their work and then lose the answer
    /// (the connection is closed without one), as a gateway that timed out after charging.
    public var transientFailureRate: Double
    /// Seeds the choice of failing requests, so a chaos run can be repeated.
    public var seed: UInt64
    /// How long a PaymentIntent stays out of search results after it is made: Stripe's search is
    /// not read-after-write, and can lag about a minute behind a charge.
    public var searchLag: Duration

    public init(
        apiKey: String = "sk_test_fake_stripe_key",
        slowAnswerDelay: Duration = .seconds(2),
        trickleInterval: Duration = .milliseconds(100),
        transientFailureRate: Double = 0,
        seed: UInt64 = 42,
        searchLag: Duration = .zero
    ) {
        self.apiKey = apiKey
        self.slowAnswerDelay = slowAnswerDelay
        self.trickleInterval = trickleInterval
        self.transientFailureRate = transientFailureRate
        self.seed = seed
        self.searchLag = searchLag
    }
}
