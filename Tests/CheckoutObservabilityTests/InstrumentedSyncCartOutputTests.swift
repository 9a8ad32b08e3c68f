import CheckoutDomain
import CheckoutObservability
import CheckoutTestSupport
import Logging
import Testing

@Suite struct InstrumentedSyncCartOutputTests {
    @Test func passesASyncOnThenLogsAndCountsItWithItsAdjustments() async throws {
        let (sut, output, logs, metrics) = makeSUT()
        let synced = try syncedCart()

        try await sut.didSync(synced)

        #expect(await output.messages == [.didSync(synced)])
        #expect(metrics.counter("checkout_cart_syncs_total", ["result=synced"]) == 1)
        #expect(metrics.counter("checkout_cart_adjustments_total", ["reason=merged"]) == 1)
        #expect(metrics.counter("checkout_cart_adjustments_total", ["reason=unknown-sku"]) == 1)
        let record = try #require(logs.records.first)
        #expect(record.level == .info)
        #expect(record["cart.id"] == "cart-42")
        #expect(record.metadata["cart.version"] == .stringConvertible(1))
        #expect(record.metadata["cart.lines"] == .stringConvertible(synced.cart.lines.count))
        #expect(record.metadata["cart.subtotal_minor_units"] == .stringConvertible(synced.cart.subtotal.minorUnits))
        #expect(record["cart.currency"] == "EUR")
        #expect(record.metadata["cart.adjustments"] == .array(synced.adjustments.map { .string($0.reason.rawValue) }))
    }

    @Test func passesARejectionOnThenLogsAndCountsItByReason() async throws {
        let (sut, output, logs, metrics) = makeSUT()
        let rejection = SyncCartRejection(cartID: "cart-42", reason: .versionConflict, message: "stale", currentVersion: 3)

        try await sut.didReject(rejection)

        #expect(await output.messages == [.didRejectSync(rejection)])
        #expect(metrics.counter("checkout_cart_syncs_total", ["result=rejected", "reason=version-conflict"]) == 1)
        #expect(logs.records.first?["rejection.reason"] == "version-conflict")
        #expect(logs.records.first?["cart.version"] == "3")
    }

    @Test func countsNothingWhenTheOutcomeCouldNotBePublished() async throws {
        let (sut, _, logs, metrics) = makeSUT(failing: true)

        await #expect(throws: OutputSpy.PublishFailed.self) { try await sut.didSync(syncedCart()) }

        #expect(metrics.events.isEmpty)
        #expect(logs.records.isEmpty)
    }

    private func makeSUT(failing: Bool = false) -> (InstrumentedSyncCartOutput, OutputSpy, LogRecorder, TestMetricsFactory) {
        let output = OutputSpy(failing: failing)
        let logs = LogRecorder()
        let metrics = TestMetricsFactory()
        let sut = InstrumentedSyncCartOutput(
            output, logger: RecordingLogHandler.logger(recordingInto: logs), metrics: .init(factory: metrics))
        return (sut, output, logs, metrics)
    }
}
