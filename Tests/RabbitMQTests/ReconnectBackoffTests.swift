import RabbitMQ
import Testing

@Suite struct ReconnectBackoffTests {
    @Test func growsExponentiallyUpToTheCap() {
        let backoff = ReconnectBackoff(initialDelay: .milliseconds(100), maximumDelay: .seconds(2), jitter: 0)
        #expect(backoff.delay(forAttempt: 0) == .milliseconds(100))
        #expect(backoff.delay(forAttempt: 1) == .milliseconds(200))
        #expect(backoff.delay(forAttempt: 3) == .milliseconds(800))
        #expect(backoff.delay(forAttempt: 10) == .seconds(2))
        #expect(backoff.delay(forAttempt: 10_000) == .seconds(2))
    }

    @Test func jitterStaysWithinItsFraction() {
        let backoff = ReconnectBackoff(initialDelay: .seconds(1), maximumDelay: .seconds(1), jitter: 0.5)
        let delays = (0..<200).map { _ in backoff.delay(forAttempt: 0) }
        #expect(delays.allSatisfy { $0 >= .milliseconds(500) && $0 <= .seconds(1) })
        #expect(Set(delays).count > 1)
    }
}
