import CheckoutDomain
import CheckoutObservability
import CheckoutTestSupport
import Logging
import Testing

@Suite struct InstrumentedPlaceOrderTests {
    @Test func passesTheRequestOnAndTimesIt() async throws {
        let (sut, useCase, _, metrics) = makeSUT()

        try await sut.execute(placeRequest())

        #expect(await useCase.messages == [.placeOrder(placeRequest())])
        #expect(metrics.timings("checkout_command_duration_seconds", ["command=order.place", "result=handled"]) == 1)
    }

    @Test func countsAPaymentProcessorFailureByItsCodeWithoutLoggingTheToken() async throws {
        let (sut, _, logs, metrics) = makeSUT(throwing: RetryableError(code: .paymentProcessorUnavailable, context: "charging 5998 EUR"))

        await #expect(throws: RetryableError.self) { try await sut.execute(placeRequest()) }

        #expect(metrics.counter("checkout_command_retries_total", ["command=order.place", "code=payment-processor-unavailable"]) == 1)
        #expect(logs.records.map(\.level) == [.warning])
        let logged = logs.records.map { "\($0.message) \($0.metadata)" }.joined()
        #expect(!logged.contains("tok_secret_visa"))
    }

    /// A command claimed by another worker is looked at again every retry delay while the claim lasts:
    /// counted each time, but not a warning each time.
    @Test func countsAWaitForAnotherWorkersClaimButLogsItAtDebugOnly() async throws {
        let (sut, _, logs, metrics) = makeSUT(throwing: RetryableError(code: .commandInProgress, context: "command cmd-1 is claimed"))

        await #expect(throws: RetryableError.self) { try await sut.execute(placeRequest()) }

        #expect(metrics.counter("checkout_command_retries_total", ["command=order.place", "code=command-in-progress"]) == 1)
        #expect(logs.records.map(\.level) == [.debug])
    }

    @Test func countsAndLogsACommandAbandonedAfterItsLastRetry() async throws {
        let (sut, useCase, logs, metrics) = makeSUT()
        let cause = RetryableError(code: .paymentProcessorUnavailable, context: "charging 5998 EUR")

        try await sut.abandon(placeRequest(), after: cause)

        #expect(await useCase.messages == [.abandonPlaceOrder(placeRequest(), code: .paymentProcessorUnavailable)])
        #expect(metrics.counter("checkout_commands_abandoned_total", ["command=order.place", "code=payment-processor-unavailable"]) == 1)
        #expect(logs.records.map(\.level) == [.error])
        #expect(logs.records.first?.metadata["command.id"] == "\(placeRequest().commandID)")
    }

    private func makeSUT(throwing error: (any Error)? = nil) -> (InstrumentedPlaceOrder, UseCaseSpy, LogRecorder, TestMetricsFactory) {
        let useCase = UseCaseSpy(throwing: error)
        let logs = LogRecorder()
        let metrics = TestMetricsFactory()
        let sut = InstrumentedPlaceOrder(useCase, logger: RecordingLogHandler.logger(recordingInto: logs), metrics: .init(factory: metrics))
        return (sut, useCase, logs, metrics)
    }
}
