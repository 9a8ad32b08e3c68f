import CheckoutMessaging
import Testing

@Suite struct RetryDelaysTests {
    @Test func readsTheContractsDefaultWithEveryUnit() throws {
        let delays = try RetryDelays("1s, 5s,30s,2m,10m")

        #expect(delays.delays.map(\.milliseconds) == [1000, 5000, 30_000, 120_000, 600_000])
        #expect(delays.description == "1s,5s,30s,2m,10m")
        #expect(try RetryDelays("250ms,1h").delays.map(\.milliseconds) == [250, 3_600_000])
    }

    /// A command another worker has claimed waits in the first retry queue: without one, the worker had
    /// nowhere to park it, and every replica it reached would have stopped on it.
    @Test(arguments: ["", " ", " , "])
    func refusesAListWithoutADelay(text: String) {
        let error = #expect(throws: RetryDelaysError.self) { try RetryDelays(text) }
        #expect(error?.description.hasPrefix("a retry delay is missing") == true)
    }

    @Test(arguments: ["5", "5x", "-1s", "0s", "1.5s", "1s,,2s", "25h", "s"])
    func rejectsWhatIsNotAPositiveDurationWithAUnit(text: String) {
        #expect(throws: RetryDelaysError.self) { try RetryDelays(text) }
    }

    @Test func namesARetryQueuePerCommandAndDelay() throws {
        var configuration = MessagingConfiguration(concurrency: 1)
        configuration.retryDelays = try RetryDelays("500ms,2m")

        #expect(configuration.retryQueue(for: .syncCart, retry: 0) == "checkout.retry.sync-cart.500ms")
        #expect(configuration.retryQueue(for: .placeOrder, retry: 1) == "checkout.retry.place-order.2m")
    }
}
