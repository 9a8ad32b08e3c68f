import CheckoutDomain
import CheckoutMessagingTesting
import CheckoutPayments
import CheckoutPersistence
import Foundation
import Logging
import Metrics
import RabbitMQ
import Tracing

@testable import CheckoutMessaging

/// The command handler over the in-memory broker and the in-memory store, running the real use cases
/// with the sandbox payment processor; a test lines up sync-cart failures in `failures`, and failures
/// of giving one up in `abandonFailures`.
struct CommandHandlerSUT {
    static let now = Date(timeIntervalSince1970: 1_750_000_000)
    /// Two retries, so that a test can follow a command to its give-up.
    static let retryDelays = "1s,5s"

    let handler: CommandHandler
    let broker: InMemoryMessageBroker
    let configuration: MessagingConfiguration
    let signer: RetrySigner
    let failures: ExecutionFailures
    let abandonFailures: ExecutionFailures

    /// - Parameters:
    ///   - maximumPropertiesByteCount: What the broker takes in one frame; small, to make the client's
    ///     properties not fit.
    ///   - pauseBeforeRequeue: How long the handler waits before handing a delivery back.
    ///   - tracer: Where the handler's spans go.
    static func make(
        maximumPropertiesByteCount: Int? = nil, pauseBeforeRequeue: Duration = .zero, tracer: any Tracer = NoOpTracer()
    ) async throws -> CommandHandlerSUT {
        let broker = maximumPropertiesByteCount.map(InMemoryMessageBroker.init) ?? InMemoryMessageBroker()
        let configuration = try configuration()
        let signer = RetrySigner(key: Array(repeating: 7, count: 32))
        let failures = ExecutionFailures()
        let abandonFailures = ExecutionFailures()
        let handler = try await makeHandler(
            over: broker, configuration: configuration, signer: signer, failures: failures, abandonFailures: abandonFailures,
            pauseBeforeRequeue: pauseBeforeRequeue, tracer: tracer)
        return CommandHandlerSUT(
            handler: handler, broker: broker, configuration: configuration, signer: signer, failures: failures,
            abandonFailures: abandonFailures)
    }

    /// The contract's names, with ``retryDelays``.
    static func configuration() throws -> MessagingConfiguration {
        var configuration = MessagingConfiguration(concurrency: 1)
        configuration.retryDelays = try RetryDelays(retryDelays)
        return configuration
    }

    /// A handler over `broker` and a new in-memory store that sells `SKU-RED-M` at 29.99 EUR.
    static func makeHandler(
        over broker: any MessageBroker,
        configuration: MessagingConfiguration,
        signer: RetrySigner,
        failures: ExecutionFailures,
        abandonFailures: ExecutionFailures = ExecutionFailures(),
        pauseBeforeRequeue: Duration,
        tracer: any Tracer = NoOpTracer()
    ) async throws -> CommandHandler {
        let store = CheckoutStore.inMemory()
        let eur = try CurrencyCode("EUR")
        _ = try await store.importCatalog([
            Product(
                sku: try SKU("SKU-RED-M"), name: "Red T-shirt, M", price: Money(minorUnits: 2999, currency: eur), stock: 10, isActive: true)
        ])
        let payments = SandboxPaymentProcessor()
        let now: @Sendable () -> Date = { Self.now }
        let useCases = UseCaseFactory(
            syncCart: { output, _ in
                FailingSyncCart(
                    wrapped: SyncCartUseCase(store: store.syncCarts, output: output, now: now),
                    failures: failures,
                    abandonFailures: abandonFailures
                )
            },
            placeOrder: { output, _ in
                PlaceOrderUseCase(
                    store: store.placeOrders, catalog: store.catalog, orders: store.orders, payments: payments, charges: store.charges,
                    processedCommands: store.placeOrderCommands, output: output, now: now)
            }
        )
        return CommandHandler(
            broker: broker,
            configuration: configuration,
            useCases: useCases,
            retrySigner: signer,
            logger: Logger(label: "command-handler-tests") { _ in SwiftLogNoOpLogHandler() },
            metrics: NOOPMetricsHandler.instance,
            tracer: tracer,
            pauseBeforeRequeue: pauseBeforeRequeue,
            now: now
        )
    }

    /// Hands the handler a message as the broker delivers it from `kind`'s queue (under the command's
    /// routing key unless `routingKey` says otherwise), and returns once the handler is done with it.
    @discardableResult
    func handle(
        _ kind: CommandKind,
        routingKey: String? = nil,
        properties: AMQPProperties,
        body: [UInt8],
        bodySize: Int? = nil,
        headersTruncated: Bool = false
    ) async -> InMemoryDelivery {
        let delivery = broker.deliver(
            routingKey: routingKey ?? kind.routingKey, properties: properties, body: body, bodySize: bodySize,
            headersTruncated: headersTruncated)
        await handler.handle(delivery, kind: kind)
        return delivery
    }

    /// Delivers a retry copy again as its retry queue does after the delay: back to `kind`'s work
    /// queue through the default exchange.
    @discardableResult
    func handleAgain(_ copy: AMQPMessage, _ kind: CommandKind) async -> InMemoryDelivery {
        await handle(kind, routingKey: configuration.queue(for: kind), properties: copy.properties, body: copy.body)
    }

    /// How `delivery` was settled, if it was settled once and after every publish, as the contract
    /// wants (a command is acked only after its event, retry or dead letter was confirmed); nil otherwise.
    func settledLast(_ delivery: InMemoryDelivery) -> InMemoryDelivery.Settlement? {
        guard broker.settlements(of: delivery).count == 1,
            case .settled(delivery.deliveryTag, let settlement) = broker.events.last
        else { return nil }
        return settlement
    }

    var events: [AMQPMessage] { broker.published(toExchange: configuration.eventsExchange) }
    var deadLetters: [AMQPMessage] { broker.published(toExchange: configuration.deadLetter) }
    /// The copies parked in retry queues: published to the default exchange under a retry queue's name.
    var retries: [AMQPMessage] {
        broker.published(toExchange: "").filter { $0.routingKey.hasPrefix("\(configuration.retryQueuePrefix).") }
    }

    /// The headers a worker puts on a retry copy with `count`.
    func signedRetryHeaders(messageID: String, count: Int, routingKey: String) -> AMQPFieldTable {
        [
            RetryHeaders.retryCount: .int64(Int64(count)),
            RetryHeaders.retrySignature: .string(signer.signature(messageID: messageID, retryCount: count)),
            RetryHeaders.originalRoutingKey: .string(routingKey),
        ]
    }
}
