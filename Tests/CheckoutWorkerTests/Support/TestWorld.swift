import CheckoutDomain
import CheckoutMessaging
import CheckoutOperations
import CheckoutPersistence
import Configuration
import Foundation
import Logging
import RabbitMQ
import Testing

@testable import checkout_worker

/// One test's world: a worker built by `buildWorker` on the real broker, under topology names no
/// other test uses, and a client connection that publishes commands and collects every event,
/// reply and dead letter, as an outside service would.
final class TestWorld: Sendable {
    let names: MessagingConfiguration
    let brokerURL: String
    let client: AMQPConnection
    let events: MessageInbox
    /// Empty when the world leaves the dead letters in their queue.
    let deadLetters: MessageInbox
    let replies: MessageInbox
    /// Every command published to the commands exchange, when the world observes them.
    let commands: MessageInbox
    let replyQueue: String
    private let consumers: Task<Void, Never>

    static let brokerURL =
        ProcessInfo.processInfo.environment["RABBITMQ_URL"].flatMap { $0.isEmpty ? nil : $0 }
        ?? "amqp://guest:guest@127.0.0.1:21672/%2F"

    static let logger: Logger = {
        var logger = Logger(label: "worker-tests")
        logger.logLevel = ProcessInfo.processInfo.environment["TEST_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .critical
        return logger
    }()

    static let catalog: [Product] = [
        product("SKU-RED-M", price: 2999, stock: 10),
        product("SKU-BLUE-L", price: 1999, stock: 5),
        product("SKU-LAST", price: 500, stock: 1),
        product("SKU-GONE", price: 100, stock: 3, active: false),
    ]

    /// - Parameters:
    ///   - virtualHost: A virtual host of the test's own, where the world uses the contract's names, as
    ///     `checkout-worker` run as a process does; by default the world uses names of its own on `/`.
    ///   - collectsDeadLetters: Whether the client consumes the dead-letter queue into ``deadLetters``,
    ///     or leaves the dead letters there for the dead-letter tools.
    ///   - observesCommands: Whether ``commands`` collects what is published to the commands exchange.
    init(
        _ name: String = "world",
        retryDelays: String = "100ms,200ms",
        virtualHost: String? = nil,
        queueType: QueueType = .classic,
        collectsDeadLetters: Bool = true,
        observesCommands: Bool = false
    ) async throws {
        let prefix = "test.\(name).\(UUID().uuidString.prefix(8))"
        var names = try WorkerConfiguration(reading: Self.reader([:])).messaging
        if virtualHost == nil {
            names.commandsExchange = "\(prefix).commands"
            names.eventsExchange = "\(prefix).events"
            names.deadLetter = "\(prefix).dead-letter"
            names.syncCartQueue = "\(prefix).sync-cart"
            names.placeOrderQueue = "\(prefix).place-order"
            names.retryQueuePrefix = "\(prefix).retry"
        }
        names.retryDelays = try RetryDelays(retryDelays)
        names.queueType = queueType
        self.names = names
        brokerURL = virtualHost.map { Self.brokerURL(virtualHost: $0) } ?? Self.brokerURL

        client = try await AMQPConnection.connect(AMQPConfiguration(urls: brokerURL), logger: Self.logger)
        try await client.declare(CheckoutTopology.make(names))
        let eventQueue = "\(prefix).observed-events"
        let commandQueue = "\(prefix).observed-commands"
        replyQueue = "\(prefix).replies"
        try await client.declare(
            AMQPTopology(
                queues: [eventQueue, replyQueue].map { .init(name: $0, durable: false, autoDelete: true) },
                bindings: [.init(queue: eventQueue, exchange: names.eventsExchange, routingKey: "#")]
            ))
        if observesCommands {
            // Bound to every routing key: with it, no command is unroutable.
            try await client.declare(
                AMQPTopology(
                    queues: [.init(name: commandQueue, durable: false, autoDelete: true)],
                    bindings: [.init(queue: commandQueue, exchange: names.commandsExchange, routingKey: "#")]
                ))
        }
        events = MessageInbox()
        deadLetters = MessageInbox()
        replies = MessageInbox()
        commands = MessageInbox()
        var streams = [
            (try await client.consume(queue: eventQueue, prefetch: 500), events),
            (try await client.consume(queue: replyQueue, prefetch: 500), replies),
        ]
        if collectsDeadLetters { streams.append((try await client.consume(queue: names.deadLetter, prefetch: 500), deadLetters)) }
        if observesCommands { streams.append((try await client.consume(queue: commandQueue, prefetch: 500), commands)) }
        consumers = Task {
            await withTaskGroup(of: Void.self) { group in
                for (consumer, inbox) in streams {
                    group.addTask {
                        for await delivery in consumer {
                            inbox.append(delivery)
                            delivery.ack()
                        }
                    }
                }
            }
        }
    }

    /// A worker as `checkout-worker run` builds it, with this world's names, on the in-memory store
    /// unless `environment` names another, selling ``catalog`` (imported at start-up from a file, as
    /// `CHECKOUT_CATALOG_FILE` does); returns once it is ready.
    func startWorker(_ environment: [String: String] = [:]) async throws -> RunningWorker {
        var configuration = try WorkerConfiguration(
            reading: Self.reader(
                [
                    "CHECKOUT_AMQP_URL": brokerURL,
                    "CHECKOUT_DATABASE_URL": "memory://",
                    "CHECKOUT_HTTP_PORT": "0",
                    "CHECKOUT_CONCURRENCY": "8",
                    "CHECKOUT_CATALOG_FILE": Self.catalogFile,
                ].merging(environment) { $1 }))
        configuration.messaging.commandsExchange = names.commandsExchange
        configuration.messaging.eventsExchange = names.eventsExchange
        configuration.messaging.deadLetter = names.deadLetter
        configuration.messaging.syncCartQueue = names.syncCartQueue
        configuration.messaging.placeOrderQueue = names.placeOrderQueue
        configuration.messaging.retryQueuePrefix = names.retryQueuePrefix
        configuration.messaging.retryDelays = names.retryDelays
        configuration.messaging.queueType = names.queueType
        configuration.amqp.heartbeatSeconds = 5
        let metrics = MetricsBootstrap()
        return try await RunningWorker(
            try buildWorker(configuration: configuration, logger: Self.logger, metrics: metrics), metrics: metrics)
    }

    /// ``catalog`` as a catalog file, written once per test process.
    static let catalogFile: String = {
        let rows = catalog.map { product in
            [
                "sku": product.sku.rawValue, "name": product.name, "unitPrice": product.price.minorUnits,
                "currency": product.price.currency.rawValue, "stock": product.stock, "active": product.isActive,
            ] as [String: Any]
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("test-world-catalog-\(UUID().uuidString).json").path
        try! JSONSerialization.data(withJSONObject: rows).write(to: URL(fileURLWithPath: path))
        return path
    }()

    /// Publishes a command as a client would.
    @discardableResult
    func send(
        _ kind: CommandKind,
        _ body: String,
        messageID: String? = UUID().uuidString,
        correlationID: String? = nil,
        replyTo: String? = nil,
        headers: AMQPFieldTable? = nil
    ) async throws -> String? {
        try await sendRaw(
            kind.routingKey, Array(body.utf8), messageID: messageID, correlationID: correlationID, replyTo: replyTo, headers: headers)
        return messageID
    }

    func sendRaw(
        _ routingKey: String,
        _ body: [UInt8],
        messageID: String?,
        correlationID: String? = nil,
        replyTo: String? = nil,
        headers: AMQPFieldTable? = nil,
        exchange: String? = nil
    ) async throws {
        let properties = AMQPProperties(
            contentType: "application/json",
            headers: headers,
            deliveryMode: .persistent,
            correlationID: correlationID,
            replyTo: replyTo,
            messageID: messageID
        )
        try await client.publish(
            AMQPMessage(
                exchange: exchange ?? names.commandsExchange, routingKey: routingKey, properties: properties, body: body, mandatory: true))
    }

    /// Runs `body`, then stops `worker` and closes the world, also when `body` throws.
    func tearingDown<Result>(_ worker: RunningWorker, after body: () async throws -> Result) async throws -> Result {
        let result: Result
        do {
            result = try await body()
        } catch {
            try? await worker.stop()
            await close()
            throw error
        }
        try await worker.stop()
        await close()
        return result
    }

    func close() async {
        consumers.cancel()
        for queue in [names.syncCartQueue, names.placeOrderQueue, names.deadLetter] {
            _ = try? await client.deleteQueue(queue)
        }
        for kind in CommandKind.allCases {
            for retry in names.retryDelays.delays.indices {
                _ = try? await client.deleteQueue(names.retryQueue(for: kind, retry: retry))
            }
        }
        for exchange in [names.commandsExchange, names.eventsExchange, names.deadLetter] {
            try? await client.deleteExchange(exchange)
        }
        await client.close()
    }

    /// Publishes a dead letter as the worker's `FailureRouter` writes one, for states that are slow to
    /// reach through a worker (many dead letters, or one whose command was in fact handled).
    func publishDeadLetter(
        _ kind: CommandKind, _ body: String, messageID: String?, reason: String = "retries-exhausted", retryCount: Int = 2,
        at time: AMQPTimestamp = AMQPTimestamp(Date())
    ) async throws {
        let headers: AMQPFieldTable = [
            RetryHeaders.errorReason: .string(reason),
            RetryHeaders.errorDetail: .string("gave up after \(retryCount) retries: database-unavailable: test"),
            RetryHeaders.originalRoutingKey: .string(kind.routingKey),
            RetryHeaders.deadLetteredAt: .timestamp(time),
            RetryHeaders.retryCount: .int64(Int64(retryCount)),
        ]
        let properties = AMQPProperties(contentType: "application/json", headers: headers, deliveryMode: .persistent, messageID: messageID)
        try await client.publish(
            AMQPMessage(
                exchange: names.deadLetter, routingKey: kind.routingKey, properties: properties, body: Array(body.utf8), mandatory: true))
    }

    static func brokerURL(virtualHost: String) -> String {
        let path = brokerURL.range(of: "/", options: .backwards, range: brokerURL.range(of: "://")!.upperBound..<brokerURL.endIndex)!
        return brokerURL[..<path.lowerBound] + "/" + virtualHost
    }

    static func reader(_ environment: [String: String]) -> ConfigReader {
        ConfigReader(provider: EnvironmentVariablesProvider(environmentVariables: environment))
    }

    private static func product(_ sku: String, price: Int64, stock: Int, active: Bool = true) -> Product {
        Product(
            sku: try! SKU(sku), name: sku, price: Money(minorUnits: price, currency: try! CurrencyCode("EUR")), stock: stock,
            isActive: active)
    }
}
