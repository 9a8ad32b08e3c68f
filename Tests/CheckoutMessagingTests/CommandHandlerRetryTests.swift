import CheckoutDomain
import CheckoutMessagingTesting
import InMemoryTracing
import RabbitMQ
import Testing

@testable import CheckoutMessaging

/// The rows of the contract's failure table for failures: transient ones retried through the delay
/// queues with a signed count and given up after the last, permanent ones given up at once, and what
/// the broker refuses handed back to it rather than acked.
@Suite struct CommandHandlerRetryTests {
    private static let databaseDown = RetryableError(code: .databaseUnavailable, context: "loading cart cart-42")
    static let searchLagging = RetryableError(code: .paymentSearchLagging, context: "the charge of command sync-1 is not found yet")

    @Test func aTransientFailureParksAPersistentCopyInTheFirstRetryQueueWithASignedCountThenAcks() async throws {
        let tracer = InMemoryTracer()
        let sut = try await CommandHandlerSUT.make(tracer: tracer)
        sut.failures.fail(with: Self.databaseDown)
        // A client may publish a command transient; the copy outlives the acked original, so it is persistent.
        var properties = ClientMessages.properties(messageID: "sync-1")
        properties.deliveryMode = .transient

        let delivery = await sut.handle(.syncCart, properties: properties, body: ClientMessages.syncCart())

        let copy = try #require(sut.retries.only)
        #expect(copy.routingKey == "checkout.retry.sync-cart.1s")
        #expect(copy.mandatory)
        #expect(copy.body == ClientMessages.syncCart())
        let headers = try #require(copy.properties.headers)
        #expect(headers[RetryHeaders.retryCount]?.intValue == 1)
        #expect(sut.signer.verifies(try #require(headers[RetryHeaders.retrySignature]?.stringValue), messageID: "sync-1", retryCount: 1))
        #expect(headers[RetryHeaders.originalRoutingKey]?.stringValue == "cart.sync")
        #expect(headers["client-header"]?.stringValue == "kept")
        #expect(copy.properties.messageID == "sync-1")
        #expect(copy.properties.correlationID == "corr-sync-1")
        #expect(copy.properties.deliveryMode == .persistent)
        #expect(sut.settledLast(delivery) == .ack)
        #expect(sut.events.isEmpty && sut.deadLetters.isEmpty)
        #expect(try #require(tracer.finishedSpans.only).errors.count == 1)
    }

    @Test func aTransientPaymentFailureIsRetriedAtEveryDelayThenAnsweredPaymentUnavailableAndDeadLettered() async throws {
        let sut = try await CommandHandlerSUT.make()
        await sut.handle(.syncCart, properties: ClientMessages.properties(messageID: "sync-1"), body: ClientMessages.syncCart())

        let first = await sut.handle(
            .placeOrder, properties: ClientMessages.properties(messageID: "order-1"),
            body: ClientMessages.placeOrder(token: "tok_processingError"))
        let second = await sut.handleAgain(try #require(sut.retries.last), .placeOrder)
        let last = await sut.handleAgain(try #require(sut.retries.last), .placeOrder)

        #expect(sut.retries.map(\.routingKey) == ["checkout.retry.place-order.1s", "checkout.retry.place-order.5s"])
        #expect(sut.retries.map { $0.properties.headers?[RetryHeaders.retryCount]?.intValue } == [1, 2])
        let answer = try #require(sut.events.last)
        #expect(answer.routingKey == "order.rejected")
        #expect(ClientMessages.json(answer)["reason"] as? String == "payment-unavailable")
        let dead = try #require(sut.deadLetters.only)
        #expect(dead.routingKey == "order.place")
        #expect(dead.properties.headers?[RetryHeaders.errorReason]?.stringValue == "retries-exhausted")
        #expect(
            dead.properties.headers?[RetryHeaders.errorDetail]?.stringValue?.hasPrefix(
                "gave up after 2 retries: payment-processor-unavailable") == true)
        #expect(dead.properties.headers?[RetryHeaders.retryCount]?.intValue == 2)
        #expect(dead.properties.headers?[RetryHeaders.originalRoutingKey]?.stringValue == "order.place")
        #expect(dead.body == ClientMessages.placeOrder(token: "tok_processingError"))
        #expect(sut.broker.settlements(of: first) == [.ack])
        #expect(sut.broker.settlements(of: second) == [.ack])
        #expect(sut.settledLast(last) == .ack)
    }

    @Test func aRetryCountWithoutTheWorkersSignatureIsTakenAsZero() async throws {
        let sut = try await CommandHandlerSUT.make()
        sut.failures.fail(with: Self.databaseDown)
        var headers = sut.signedRetryHeaders(messageID: "sync-1", count: 2, routingKey: "cart.sync")
        headers[RetryHeaders.retrySignature] = .string(sut.signer.signature(messageID: "sync-1", retryCount: 1))

        await sut.handle(
            .syncCart, properties: ClientMessages.properties(messageID: "sync-1", headers: headers), body: ClientMessages.syncCart())

        let copy = try #require(sut.retries.only)
        #expect(copy.routingKey == "checkout.retry.sync-cart.1s")
        #expect(copy.properties.headers?[RetryHeaders.retryCount]?.intValue == 1)
        #expect(sut.deadLetters.isEmpty)
    }

    /// Waits that are not failures: another worker's claim on the command, and a charge the payment
    /// processor's search does not show yet. Nor does the command's span show them as errors.
    @Test(arguments: [
        RetryableError(code: .commandInProgress, context: "claimed by worker 2"), CommandHandlerRetryTests.searchLagging,
    ])
    func aWaitThatIsNoFailureLooksAgainFromTheFirstRetryQueueWithoutSpendingARetry(wait: RetryableError) async throws {
        let tracer = InMemoryTracer()
        let sut = try await CommandHandlerSUT.make(tracer: tracer)
        sut.failures.fail(with: wait)
        let headers = sut.signedRetryHeaders(messageID: "sync-1", count: 1, routingKey: "cart.sync")

        let delivery = await sut.handle(
            .syncCart, routingKey: "checkout.sync-cart", properties: ClientMessages.properties(messageID: "sync-1", headers: headers),
            body: ClientMessages.syncCart())

        let copy = try #require(sut.retries.only)
        #expect(copy.routingKey == "checkout.retry.sync-cart.1s")
        #expect(copy.properties.headers?[RetryHeaders.retryCount]?.intValue == 1)
        #expect(
            sut.signer.verifies(
                try #require(copy.properties.headers?[RetryHeaders.retrySignature]?.stringValue), messageID: "sync-1", retryCount: 1))
        #expect(sut.events.isEmpty && sut.deadLetters.isEmpty)
        #expect(sut.settledLast(delivery) == .ack)
        #expect(try #require(tracer.finishedSpans.only).errors.isEmpty)
    }

    /// Answering a command given up while a charge of it may still show in the processor's search could
    /// leave the charge kept: it waits, given up, and is answered and dead-lettered once it can be.
    @Test func aCommandGivenUpWaitsForTheProcessorsSearchThenIsAnsweredAndDeadLettered() async throws {
        let sut = try await CommandHandlerSUT.make()
        sut.failures.fail(with: Self.databaseDown)
        sut.abandonFailures.fail(with: Self.searchLagging)
        let headers = sut.signedRetryHeaders(messageID: "sync-1", count: 2, routingKey: "cart.sync")

        let last = await sut.handle(
            .syncCart, routingKey: "checkout.sync-cart", properties: ClientMessages.properties(messageID: "sync-1", headers: headers),
            body: ClientMessages.syncCart())
        let waiting = try #require(sut.retries.only)
        #expect(sut.events.isEmpty && sut.deadLetters.isEmpty)
        let answered = await sut.handleAgain(waiting, .syncCart)

        #expect(waiting.routingKey == "checkout.retry.sync-cart.1s")
        #expect(waiting.properties.headers?[RetryHeaders.retryCount]?.intValue == 3)
        #expect(sut.events.map(\.routingKey) == ["cart.sync-rejected"])
        let dead = try #require(sut.deadLetters.only)
        let deadHeaders = try #require(dead.properties.headers)
        #expect(deadHeaders[RetryHeaders.errorReason]?.stringValue == "retries-exhausted")
        #expect(deadHeaders[RetryHeaders.errorDetail]?.stringValue?.hasPrefix("gave up after 2 retries: database-unavailable") == true)
        #expect(deadHeaders[RetryHeaders.retryCount]?.intValue == 2)
        #expect(
            sut.signer.verifies(try #require(deadHeaders[RetryHeaders.retrySignature]?.stringValue), messageID: "sync-1", retryCount: 2))
        #expect(sut.broker.settlements(of: last) == [.ack])
        #expect(sut.settledLast(answered) == .ack)
    }

    @Test func anEventTheBrokerDidNotConfirmIsRetried() async throws {
        let sut = try await CommandHandlerSUT.make()
        sut.broker.failPublishes(toExchange: "checkout.events", with: AMQPError(code: .publishNacked, message: "nacked"), times: 1)

        let delivery = await sut.handle(
            .syncCart, properties: ClientMessages.properties(messageID: "sync-1"), body: ClientMessages.syncCart())

        #expect(sut.retries.only?.routingKey == "checkout.retry.sync-cart.1s")
        #expect(sut.settledLast(delivery) == .ack)
        #expect(sut.deadLetters.isEmpty)
    }

    @Test func cancellationAtShutdownIsRetriedNotGivenUp() async throws {
        let sut = try await CommandHandlerSUT.make()
        sut.failures.fail(with: CancellationError())

        await sut.handle(.syncCart, properties: ClientMessages.properties(messageID: "sync-1"), body: ClientMessages.syncCart())

        #expect(sut.retries.only?.routingKey == "checkout.retry.sync-cart.1s")
        #expect(sut.events.isEmpty && sut.deadLetters.isEmpty)
    }

    /// Past the shutdown's grace period the handler itself is cancelled: the command is handed back to
    /// the broker for another worker at once, without spending a retry on a failure that was not its own,
    /// nor marking its span as failed.
    @Test func aCommandCancelledWithTheWorkerIsHandedBackWithoutSpendingARetry() async throws {
        let tracer = InMemoryTracer()
        let sut = try await CommandHandlerSUT.make(pauseBeforeRequeue: .seconds(60), tracer: tracer)
        sut.failures.fail(with: RetryableError(code: .databaseUnavailable, context: "cancelled while waiting for the database"))

        let handling = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await sut.handle(.syncCart, properties: ClientMessages.properties(messageID: "sync-1"), body: ClientMessages.syncCart())
        }
        let delivery = await handling.value

        #expect(sut.settledLast(delivery) == .nack(requeue: true))
        #expect(sut.retries.isEmpty && sut.events.isEmpty && sut.deadLetters.isEmpty)
        let span = try #require(tracer.finishedSpans.only)
        #expect(span.errors.isEmpty)
    }

    @Test func aPermanentFailureIsAnsweredUnavailableAtOnceAndDeadLetteredFailedPermanently() async throws {
        let sut = try await CommandHandlerSUT.make()
        sut.failures.fail(with: Defect())

        let delivery = await sut.handle(
            .syncCart, properties: ClientMessages.properties(messageID: "sync-1"), body: ClientMessages.syncCart())

        let answer = try #require(sut.events.only)
        #expect(answer.routingKey == "cart.sync-rejected")
        #expect(ClientMessages.json(answer)["reason"] as? String == "unavailable")
        let dead = try #require(sut.deadLetters.only)
        #expect(dead.routingKey == "cart.sync")
        #expect(dead.properties.headers?[RetryHeaders.errorReason]?.stringValue == "failed-permanently")
        #expect(
            dead.properties.headers?[RetryHeaders.errorDetail]?.stringValue?.hasPrefix(
                "a permanent failure, not retried: unexpected-failure") == true)
        #expect(sut.retries.isEmpty)
        #expect(sut.settledLast(delivery) == .ack)
    }

    @Test func aCommandGivenUpWhoseAnswerCannotBePublishedIsDeadLetteredSayingSo() async throws {
        let sut = try await CommandHandlerSUT.make()
        sut.failures.fail(with: Self.databaseDown)
        sut.broker.failPublishes(toExchange: "checkout.events", with: AMQPError(code: .timeout, message: "no confirm"))
        let headers = sut.signedRetryHeaders(messageID: "sync-1", count: 2, routingKey: "cart.sync")

        let delivery = await sut.handle(
            .syncCart, routingKey: "checkout.sync-cart", properties: ClientMessages.properties(messageID: "sync-1", headers: headers),
            body: ClientMessages.syncCart())

        #expect(sut.events.isEmpty)
        let dead = try #require(sut.deadLetters.only)
        #expect(dead.properties.headers?[RetryHeaders.errorReason]?.stringValue == "retries-exhausted")
        #expect(
            dead.properties.headers?[RetryHeaders.errorDetail]?.stringValue?.contains(
                "the rejection could not be reported either: broker-unavailable") == true)
        #expect(sut.settledLast(delivery) == .ack)
    }

    @Test func aRetryCopyTheBrokerRefusesIsHandedBackAfterAPauseNotAcked() async throws {
        let pause = Duration.milliseconds(20)
        let sut = try await CommandHandlerSUT.make(pauseBeforeRequeue: pause)
        sut.failures.fail(with: Self.databaseDown)
        sut.broker.failPublishes(toExchange: "", with: AMQPError(code: .unroutable, message: "no route"))

        let start = ContinuousClock.now
        let delivery = await sut.handle(
            .syncCart, properties: ClientMessages.properties(messageID: "sync-1"), body: ClientMessages.syncCart())

        #expect(ContinuousClock.now - start >= pause)
        #expect(sut.settledLast(delivery) == .nack(requeue: true))
        #expect(sut.retries.isEmpty && sut.events.isEmpty && sut.deadLetters.isEmpty)
    }

    @Test func aDeadLetterTheBrokerRefusesIsHandedBackNotAcked() async throws {
        let sut = try await CommandHandlerSUT.make()
        sut.failures.fail(with: Defect())
        sut.broker.failPublishes(toExchange: "checkout.dead-letter", with: AMQPError(code: .connectionLost, message: "gone"))

        let delivery = await sut.handle(
            .syncCart, properties: ClientMessages.properties(messageID: "sync-1"), body: ClientMessages.syncCart())

        #expect(sut.settledLast(delivery) == .nack(requeue: true))
        #expect(sut.deadLetters.isEmpty)
    }

    @Test func aRetryCopyKeepsOnlyTheWorkersHeadersWhenTheClientsLeaveThemNoRoom() async throws {
        let sut = try await CommandHandlerSUT.make(maximumPropertiesByteCount: 1000)
        sut.failures.fail(with: Self.databaseDown)
        // Within the 750 bytes a command may take (a quarter less than the frame), not with the retry's headers.
        let headers: AMQPFieldTable = ["client-header": .string(String(repeating: "x", count: 650))]

        let delivery = await sut.handle(
            .syncCart, properties: ClientMessages.properties(messageID: "sync-1", headers: headers), body: ClientMessages.syncCart())

        let copy = try #require(sut.retries.only)
        #expect(
            copy.properties.headers.map { Set($0.keys) } == [
                RetryHeaders.retryCount, RetryHeaders.retrySignature, RetryHeaders.originalRoutingKey,
            ])
        #expect(copy.properties.correlationID == "corr-sync-1")
        #expect(sut.settledLast(delivery) == .ack)
    }

    /// A client's `expiration` would bring the retry back before its delay, and its `CC` header send
    /// the copy to its work queue (or any other) at once, spending the retries in milliseconds.
    @Test func aRetryCopyLeavesOutWhatWouldShortenItsDelayOrRouteItElsewhere() async throws {
        let sut = try await CommandHandlerSUT.make()
        sut.failures.fail(with: Self.databaseDown)
        var properties = ClientMessages.properties(messageID: "sync-1", headers: ["CC": .array([.string("checkout.sync-cart")])])
        properties.expiration = "100"
        properties.userID = "another-user"

        let delivery = await sut.handle(.syncCart, properties: properties, body: ClientMessages.syncCart())

        let copy = try #require(sut.retries.only)
        #expect(copy.properties.expiration == nil && copy.properties.userID == nil)
        #expect(copy.properties.headers?["CC"] == nil)
        #expect(sut.settledLast(delivery) == .ack)
    }
}
