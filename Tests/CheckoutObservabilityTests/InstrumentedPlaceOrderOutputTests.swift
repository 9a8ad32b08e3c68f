import CheckoutDomain
import CheckoutObservability
import CheckoutTestSupport
import Logging
import Testing

@Suite struct InstrumentedPlaceOrderOutputTests {
    @Test func passesAnOrderOnThenLogsAndCountsIt() async throws {
        let (sut, output, logs, metrics) = makeSUT()
        let order = try placedOrder()

        try await sut.didPlace(order)

        #expect(await output.messages == [.didPlace(order)])
        #expect(metrics.counter("checkout_orders_total", ["result=placed"]) == 1)
        let record = try #require(logs.records.first)
        #expect(record.level == .info)
        #expect(record["order.id"] == "cmd-2")
        #expect(record["payment.id"] == "pay_1")
    }

    @Test func passesADeclineOnThenLogsItsCodeAndCountsItByReason() async throws {
        let (sut, output, logs, metrics) = makeSUT()
        let rejection = PlaceOrderRejection(
            cartID: "cart-42", reason: .paymentDeclined, message: "declined", declineCode: DeclineCode("card_declined"))

        try await sut.didReject(rejection)

        #expect(await output.messages == [.didRejectOrder(rejection)])
        #expect(metrics.counter("checkout_orders_total", ["result=rejected", "reason=payment-declined"]) == 1)
        #expect(logs.records.first?["payment.decline_code"] == "card_declined")
    }

    @Test func logsTheRefundOfAFailedOrder() async throws {
        let (sut, _, logs, _) = makeSUT()
        let payment = try placedOrder().payment

        try await sut.didReject(PlaceOrderRejection(cartID: "cart-42", reason: .orderFailed, message: "refunded", refundedPayment: payment))

        #expect(logs.records.first?["payment.refunded_id"] == "pay_1")
    }

    @Test func countsNothingWhenTheOutcomeCouldNotBePublished() async throws {
        let (sut, _, logs, metrics) = makeSUT(failing: true)

        await #expect(throws: OutputSpy.PublishFailed.self) { try await sut.didPlace(placedOrder()) }

        #expect(metrics.events.isEmpty)
        #expect(logs.records.isEmpty)
    }

    private func makeSUT(failing: Bool = false) -> (InstrumentedPlaceOrderOutput, OutputSpy, LogRecorder, TestMetricsFactory) {
        let output = OutputSpy(failing: failing)
        let logs = LogRecorder()
        let metrics = TestMetricsFactory()
        let sut = InstrumentedPlaceOrderOutput(
            output, logger: RecordingLogHandler.logger(recordingInto: logs), metrics: .init(factory: metrics))
        return (sut, output, logs, metrics)
    }
}
