/// Capped exponential backoff with jitter, so that many workers losing one broker do not reconnect in lockstep.
public struct ReconnectBackoff: Sendable, Hashable {
    public var initialDelay: Duration
    public var maximumDelay: Duration
    /// Fraction of each delay that is randomised: 0.5 waits between half and all of the computed delay.
    public var jitter: Double

    public init(initialDelay: Duration = .milliseconds(200), maximumDelay: Duration = .seconds(15), jitter: Double = 0.5) {
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.jitter = min(max(jitter, 0), 1)
    }

    /// The delay before attempt number `attempt` (0 for the first retry).
    public func delay(forAttempt attempt: Int, using generator: inout some RandomNumberGenerator) -> Duration {
        let exponent = Double(min(attempt, 30))
        let uncapped = initialDelay.seconds * pow2(exponent)
        let capped = min(uncapped, maximumDelay.seconds)
        let factor = 1 - jitter * Double.random(in: 0...1, using: &generator)
        return .nanoseconds(Int64(capped * factor * 1e9))
    }

    public func delay(forAttempt attempt: Int) -> Duration {
        var generator = SystemRandomNumberGenerator()
        return delay(forAttempt: attempt, using: &generator)
    }

    private func pow2(_ exponent: Double) -> Double {
        var result = 1.0
        for _ in 0..<Int(exponent) { result *= 2 }
        return result
    }
}

extension Duration {
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
