import CheckoutDomain
import CheckoutObservability
import CheckoutTestSupport
import Logging
import Testing

@Suite struct InstrumentedSyncCartTests {
    @Test func passesTheRequestOnAndTimesIt() async throws {
        let (sut, useCase, logs, metrics) = makeSUT()

        try await sut.execute(syncRequest())

        #expect(await useCase.messages == [.syncCart(syncRequest())])
        #expect(metrics.timings("checkout_command_duration_seconds", ["command=cart.sync", "result=handled"]) == 1)
        #expect(logs.records.filter { $0.level >= .warning }.isEmpty)
    }

    @Test func warnsCountsAndRethrowsARetryableError() async throws {
        let (sut, _, logs, metrics) = makeSUT(throwing: RetryableError(code: .databaseUnavailable, context: "loading cart cart-42"))

        let error = await #expect(throws: RetryableError.self) { try await sut.execute(syncRequest()) }

        #expect(error?.code == .databaseUnavailable)
        #expect(metrics.counter("checkout_command_retries_total", ["command=cart.sync", "code=database-unavailable"]) == 1)
        #expect(metrics.timings("checkout_command_duration_seconds", ["command=cart.sync", "result=retryable"]) == 1)
        let warning = try #require(logs.records.first { $0.level == .warning })
        #expect(warning["command.id"] == "cmd-1")
        #expect(warning["cart.id"] == "cart-42")
        #expect(warning["error.code"] == "database-unavailable")
        #expect(warning["error.type"] == "CheckoutDomain.RetryableError")
        #expect(warning["error.message"]?.contains("loading cart cart-42") == true)
    }

    @Test func logsAnyOtherErrorAsAnErrorAndRethrowsIt() async throws {
        struct Defect: Error {}
        let (sut, _, logs, metrics) = makeSUT(throwing: Defect())

        await #expect(throws: Defect.self) { try await sut.execute(syncRequest()) }

        #expect(logs.records.map(\.level) == [.error])
        #expect(metrics.timings("checkout_command_duration_seconds", ["command=cart.sync", "result=failed"]) == 1)
        #expect(metrics.counter("checkout_command_retries_total", ["command=cart.sync", "code=database-unavailable"]) == 0)
    }

    private func makeSUT(throwing error: (any Error)? = nil) -> (InstrumentedSyncCart, UseCaseSpy, LogRecorder, TestMetricsFactory) {
        let useCase = UseCaseSpy(throwing: error)
        let logs = LogRecorder()
        let metrics = TestMetricsFactory()
        let sut = InstrumentedSyncCart(useCase, logger: RecordingLogHandler.logger(recordingInto: logs), metrics: .init(factory: metrics))
        return (sut, useCase, logs, metrics)
    }
}
