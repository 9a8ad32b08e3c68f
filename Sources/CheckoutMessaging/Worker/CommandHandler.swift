import CheckoutDomain
import CheckoutObservability
import Foundation
import Logging
import Metrics
import RabbitMQ
import Tracing

/// Handles one delivery from start to acknowledgement, as the contract's failure table says.
///
/// A message that is not a command is dead-lettered. A command is passed to its use case, whose
/// output publishes the result event; the delivery is acked only once that event is confirmed. A
/// transient failure parks the command in the next retry queue; after the last, the use case gives it
/// up (a `*-rejected` event) and it is dead-lettered. Whatever cannot be routed is left for the broker
/// to deliver again, after a pause so that a broken dependency is not hammered.
struct CommandHandler: Sendable {
    private let configuration: MessagingConfiguration
    private let publisher: EventPublisher
    private let router: FailureRouter
    private let signer: RetrySigner
    private let useCases: UseCaseFactory
    private let logger: Logger
    private let metrics: MessagingMetrics
    private let tracer: any Tracer
    private let pauseBeforeRequeue: Duration
    private let now: @Sendable () -> Date

    /// - Parameters:
    ///   - broker: Where events, retries and dead letters are published.
    ///   - pauseBeforeRequeue: How long to wait before handing back a delivery that could be neither
    ///     acked nor routed.
    init(
        broker: any MessageBroker,
        configuration: MessagingConfiguration,
        useCases: UseCaseFactory,
        retrySigner: RetrySigner,
        logger: Logger,
        metrics: any MetricsFactory,
        tracer: any Tracer,
        pauseBeforeRequeue: Duration,
        now: @escaping @Sendable () -> Date
    ) {
        self.configuration = configuration
        publisher = EventPublisher(broker: broker, exchange: configuration.eventsExchange, tracer: tracer, metrics: metrics, now: now)
        router = FailureRouter(broker: broker, configuration: configuration, signer: retrySigner, now: now)
        signer = retrySigner
        self.useCases = useCases
        self.logger = logger
        self.metrics = MessagingMetrics(factory: metrics)
        self.tracer = tracer
        self.pauseBeforeRequeue = pauseBeforeRequeue
        self.now = now
    }

    /// The decoded command, ready to run or to give up.
    private enum Command {
        case syncCart(SyncCartRequest)
        case placeOrder(PlaceOrderRequest)

        var cartID: String {
            switch self {
            case .syncCart(let request): request.cartID
            case .placeOrder(let request): request.cartID
            }
        }
    }

    func handle(_ delivery: some MessageDelivery, kind: CommandKind) async {
        let start = ContinuousClock.now
        metrics.received(kind, sentAt: delivery.properties.timestamp, now: now())
        metrics.started()
        defer { metrics.finished() }
        var logger = logger
        logger[metadataKey: "command.type"] = "\(kind.routingKey)"
        if let messageID = delivery.properties.messageID { logger[metadataKey: "command.id"] = "\(messageID)" }

        let envelope: CommandEnvelope
        let command: Command
        do {
            envelope = try CommandEnvelope(
                delivery, kind: kind, configuration: configuration, signer: signer,
                maximumPropertiesByteCount: router.broker.maximumRedeliverablePropertiesByteCount)
            command = try Self.decode(delivery.body, kind: kind, envelope: envelope)
        } catch {
            logger.warning(
                "dead-lettering a message that is not a valid command",
                metadata: ["error.code": "\(error.code)", "error.message": "\(error.detail)"])
            await finish(delivery, kind: kind, start: start, logger: logger) {
                try await router.deadLetter(delivery, reason: error.code.description, detail: error.detail)
                metrics.deadLettered(kind, reason: error.code.description)
                return .deadLettered
            }
            return
        }
        logger[metadataKey: "messaging.message.conversation_id"] = "\(envelope.correlationID)"
        logger[metadataKey: "cart.id"] = "\(command.cartID)"

        var context = InstrumentationContext.topLevel
        tracer.extract(envelope.traceHeaders, into: &context, using: AMQPHeadersExtractor())
        await tracer.withSpan("\(kind.routingKey) process", context: context, ofKind: .consumer) { span in
            // Attributes of a span that records nothing (no exporter) would be built per command for nothing.
            if span.isRecording {
                span.attributes["messaging.system"] = "rabbitmq"
                span.attributes["messaging.operation.type"] = "process"
                span.attributes["messaging.destination.name"] = configuration.queue(for: kind)
                span.attributes["messaging.rabbitmq.destination.routing_key"] = kind.routingKey
                span.attributes["messaging.message.id"] = envelope.messageID
                span.attributes["messaging.message.conversation_id"] = envelope.correlationID
                span.attributes["checkout.retry_count"] = envelope.retryCount
            }
            await process(command, envelope, delivery, span: span, start: start, logger: logger)
        }
    }

    private func process(
        _ command: Command, _ envelope: CommandEnvelope, _ delivery: some MessageDelivery, span: any Span, start: ContinuousClock.Instant,
        logger: Logger
    ) async {
        if router.isGivenUp(envelope) {
            let detail = delivery.properties.headers?[RetryHeaders.errorDetail]?.stringValue ?? "gave up after its last retry"
            return await giveUp(
                command, envelope, delivery, after: RetryableError(code: .paymentSearchLagging, context: detail),
                reason: "retries-exhausted", detail: detail, start: start, logger: logger)
        }
        do {
            try await execute(command, envelope, logger: logger)
            delivery.ack()
            metrics.completed(envelope.kind, .acked, since: start)
            return
        } catch {
            let failure = Self.retryable(error)
            if Task.isCancelled {
                // The worker is stopping past its grace period: not a failure of the command, so no retry
                // is spent; the broker hands it straight to another worker (a closed connection does too).
                logger.notice("stopped before the command finished; handing it back to the broker", error: failure)
                return delivery.nack(requeue: true)
            }
            // A command another worker holds, or waiting for the processor's search, is deferred, not failed.
            if failure.code != .commandInProgress && failure.code != .paymentSearchLagging { span.recordError(failure) }
            if failure.code == .commandInProgress {
                // Another worker has it, or had it and died: look again after the shortest delay, without
                // spending a retry, until it finishes or its claim is taken over.
                await lookAgain(delivery, envelope, because: "the command is claimed by another worker", start: start, logger: logger)
            } else if failure.code == .paymentSearchLagging {
                // Waiting for the processor's search to show a charge to refund is not a failure: the use
                // case bounds the wait by the processor's search lag.
                await lookAgain(
                    delivery, envelope, because: "the payment processor's search does not show an earlier charge yet", start: start,
                    logger: logger)
            } else if Self.isPermanent(error) {
                // Trying again cannot help: the client gets its answer now, not after every retry delay.
                await giveUp(
                    command, envelope, delivery, after: failure, reason: "failed-permanently",
                    detail: "a permanent failure, not retried: \(failure)", start: start, logger: logger)
            } else if envelope.retryCount < configuration.retryDelays.delays.count {
                let delay = configuration.retryDelays.delays[envelope.retryCount].name
                logger.warning(
                    "retrying in \(delay)", error: failure,
                    metadata: ["error.code": "\(failure.code)", "command.retry": .stringConvertible(envelope.retryCount + 1)])
                await finish(delivery, kind: envelope.kind, start: start, logger: logger) {
                    let dropped = try await router.retry(delivery, envelope)
                    if dropped > 0 {
                        logger.warning(
                            "the retry copy left out the client's headers: with the retry headers they did not fit in a frame",
                            metadata: ["amqp.headers.dropped": .stringConvertible(dropped)])
                    }
                    return .retried
                }
            } else {
                await giveUp(
                    command, envelope, delivery, after: failure, reason: "retries-exhausted",
                    detail: "gave up after \(envelope.retryCount) retries: \(failure)", start: start, logger: logger)
            }
        }
    }

    /// After the last retry, or at once after a permanent failure: the use case reports the command as
    /// unavailable (or its outcome, if it was handled after all; a rejection of form as such), then the
    /// command is dead-lettered with `reason`. If even that report fails, the dead letter says so;
    /// replaying it once the dependency is back finishes the command.
    private func giveUp(
        _ command: Command,
        _ envelope: CommandEnvelope,
        _ delivery: some MessageDelivery,
        after failure: RetryableError,
        reason: String,
        detail: String,
        start: ContinuousClock.Instant,
        logger: Logger
    ) async {
        var detail = detail
        do {
            try await abandon(command, envelope, after: failure, logger: logger)
        } catch  where Self.retryable(error).code == .paymentSearchLagging {
            // A charge to refund may still show up: answering now could leave it kept. Given up it stays,
            // and it is dead-lettered once answered.
            logger.info(
                "the answer waits for an earlier charge to show in the payment processor's search; looking again after the first retry delay"
            )
            return await finish(delivery, kind: envelope.kind, start: start, logger: logger) {
                try await router.waitAfterGivingUp(delivery, envelope, detail: detail)
                return .retried
            }
        } catch {
            detail += "; the rejection could not be reported either: \(Self.retryable(error))"
        }
        logger.error(
            "dead-lettering a command given up and answered",
            metadata: [
                "error.code": "\(failure.code)", "error.message": "\(detail)", "dead_letter.reason": "\(reason)",
            ])
        await finish(delivery, kind: envelope.kind, start: start, logger: logger) {
            try await router.deadLetter(delivery, envelope, reason: reason, detail: detail)
            metrics.deadLettered(envelope.kind, reason: reason)
            return .deadLettered
        }
    }

    /// Sends the delivery to the first retry queue without spending a retry, for a wait that is not a failure.
    private func lookAgain(
        _ delivery: some MessageDelivery, _ envelope: CommandEnvelope, because reason: String, start: ContinuousClock.Instant,
        logger: Logger
    ) async {
        logger.info("\(reason); looking again after the first retry delay")
        await finish(delivery, kind: envelope.kind, start: start, logger: logger) {
            try await router.retry(delivery, envelope, counting: false)
            return .retried
        }
    }

    /// Acks the delivery once `route` has sent it on; if that fails, hands it back to the broker after a
    /// pause (a lost connection makes the broker take it back by itself).
    private func finish(
        _ delivery: some MessageDelivery, kind: CommandKind, start: ContinuousClock.Instant, logger: Logger,
        route: () async throws -> MessagingMetrics.Result
    ) async {
        do {
            let result = try await route()
            delivery.ack()
            metrics.completed(kind, result, since: start)
        } catch {
            if Task.isCancelled {
                logger.notice("stopped before the message was routed; it will be delivered again", error: error)
            } else {
                logger.error("could not route the message; it will be delivered again", error: error)
                try? await Task.sleep(for: pauseBeforeRequeue)
            }
            delivery.nack(requeue: true)
        }
    }

    private func execute(_ command: Command, _ envelope: CommandEnvelope, logger: Logger) async throws {
        switch command {
        case .syncCart(let request):
            try await useCases.syncCart(SyncCartEventOutput(publisher: publisher, command: envelope), logger).execute(request)
        case .placeOrder(let request):
            try await useCases.placeOrder(PlaceOrderEventOutput(publisher: publisher, command: envelope), logger).execute(request)
        }
    }

    private func abandon(_ command: Command, _ envelope: CommandEnvelope, after failure: RetryableError, logger: Logger) async throws {
        switch command {
        case .syncCart(let request):
            try await useCases.syncCart(SyncCartEventOutput(publisher: publisher, command: envelope), logger).abandon(
                request, after: failure)
        case .placeOrder(let request):
            try await useCases.placeOrder(PlaceOrderEventOutput(publisher: publisher, command: envelope), logger).abandon(
                request, after: failure)
        }
    }

    private static func decode(_ body: [UInt8], kind: CommandKind, envelope: CommandEnvelope) throws(MalformedCommand) -> Command {
        let decoder = CommandBodyDecoder()
        switch kind {
        case .syncCart: return .syncCart(try decoder.decode(SyncCartBody.self, from: body).request(envelope))
        case .placeOrder: return .placeOrder(try decoder.decode(PlaceOrderBody.self, from: body).request(envelope))
        }
    }

    /// Whether a failure will happen again however often the command is tried: anything the ports did
    /// not report as transient (`RetryableError`), other than the broker failing to take the event and
    /// this worker being cancelled (shutting down), which another attempt can get past.
    private static func isPermanent(_ error: any Error) -> Bool {
        switch error {
        case is RetryableError, is AMQPError, is CancellationError: false
        default: !Task.isCancelled
        }
    }

    /// Any failure as the retryable error it is reported as: a broker error means the event could not
    /// be published; anything unclassified is an unexpected failure.
    private static func retryable(_ error: any Error) -> RetryableError {
        switch error {
        case let error as RetryableError: error
        case let error as AMQPError: RetryableError(code: .brokerUnavailable, context: "publishing the result event", underlying: error)
        default: RetryableError(code: .unexpectedFailure, context: "\(error)", underlying: error)
        }
    }
}
