import CheckoutMessaging
import CheckoutOperations
import CheckoutPayments
import Configuration
import Foundation
import Logging
import RabbitMQ

/// The settings of `run`, every group of them, read and checked once at start-up: flags first, then the
/// environment, then the contract's defaults.
struct WorkerConfiguration: Sendable {
    enum PaymentProcessorChoice: Sendable {
        case sandbox
        case stripe(StripeConfiguration)
    }

    var amqp: AMQPConfiguration
    var databaseURL: String
    var databasePoolSize: Int
    /// Products upserted into the store at start-up (`CHECKOUT_CATALOG_FILE`, an extension): how a
    /// `memory://` worker in a process of its own gets a catalog.
    var catalogFile: String?
    var paymentProcessor: PaymentProcessorChoice
    var messaging: MessagingConfiguration
    var httpPort: Int
    var logLevel: Logger.Level
    var logFormat: LogFormat
    var shutdownGracePeriod: Duration
    /// How long a claimed command is kept from other workers: longer than a command can take (with
    /// Stripe, a card token's two requests of 5 s plus CHECKOUT_STRIPE_TIMEOUT each), short enough that a
    /// crashed worker's commands are soon taken over.
    var claimLease: Duration
    /// Whether spans go to an OpenTelemetry collector: an OTLP endpoint is set and the SDK not disabled
    /// (``OpenTelemetrySettings``).
    var exportsTraces: Bool

    /// Reads every setting of `run`; the first bad one throws a ``ConfigurationError`` naming it.
    init(reading config: ConfigReader) throws(ConfigurationError) {
        amqp = try BrokerSettings.read(config)
        databaseURL = try DatabaseSettings.read(config)
        paymentProcessor = try PaymentSettings.read(config)
        catalogFile = try config.readableFile(WorkerSettings.catalogFile)

        // A command mostly waits (database, payment gateway, broker confirms), so the worker handles every
        // delivery it holds at once: the prefetch of each command queue. Cores are no bound for waiting.
        let prefetch = try config.integer(WorkerSettings.prefetch, in: 1...65535)
        let concurrency =
            if config.text(WorkerSettings.concurrency) == nil {
                min(prefetch * CommandKind.allCases.count, 1000)
            } else {
                try config.integer(WorkerSettings.concurrency, in: 1...1000)
            }
        messaging = try BrokerSettings.names(config, concurrency: concurrency)
        messaging.prefetch = UInt16(prefetch)
        messaging.queueType = try config.value(WorkerSettings.queueType, QueueType.init(rawValue:))
        messaging.retryDelays = try config.value(WorkerSettings.retryDelays) { try? RetryDelays($0) }
        // A command holds a connection for one statement at a time, so a few connections serve many commands;
        // one PostgreSQL serves every replica, and each connection costs it a process.
        databasePoolSize = try config.integer(WorkerSettings.databasePoolSize, in: 1...100)
        httpPort = try config.integer(WorkerSettings.httpPort, in: 0...65535)
        logLevel = try config.value(WorkerSettings.logLevel, Logger.Level.init(rawValue:))
        logFormat = try config.value(WorkerSettings.logFormat, LogFormat.init(rawValue:))
        shutdownGracePeriod = try config.duration(WorkerSettings.shutdownGracePeriod)
        claimLease = try config.duration(WorkerSettings.claimLease)
        guard claimLease >= .seconds(1) else { throw WorkerSettings.claimLease.invalid(config.text(WorkerSettings.claimLease) ?? "") }
        exportsTraces = try OpenTelemetrySettings.read(config)
    }

    /// The effective configuration for the start-up log line, under each setting's log key, numbers as
    /// numbers; passwords in URLs masked, secrets left out.
    var loggable: Logger.Metadata {
        var metadata: Logger.Metadata = [
            BrokerSettings.url.logKey: "\(amqp.endpoints.map(\.description).joined(separator: ","))",
            BrokerSettings.caFile.logKey: "\(amqp.tls.caFile ?? "none")",
            BrokerSettings.certFile.logKey: "\(amqp.tls.certificateFile ?? "none")",
            BrokerSettings.keyFile.logKey: "\(amqp.tls.keyFile ?? "none")",
            BrokerSettings.commandsExchange.logKey: "\(messaging.commandsExchange)",
            BrokerSettings.eventsExchange.logKey: "\(messaging.eventsExchange)",
            BrokerSettings.deadLetter.logKey: "\(messaging.deadLetter)",
            BrokerSettings.syncCartQueue.logKey: "\(messaging.syncCartQueue)",
            BrokerSettings.placeOrderQueue.logKey: "\(messaging.placeOrderQueue)",
            BrokerSettings.retryQueuePrefix.logKey: "\(messaging.retryQueuePrefix)",
            DatabaseSettings.url.logKey: "\(SecretMasking.maskingPasswords(in: databaseURL))",
            WorkerSettings.databasePoolSize.logKey: .stringConvertible(databasePoolSize),
            WorkerSettings.catalogFile.logKey: "\(catalogFile ?? "none")",
            WorkerSettings.prefetch.logKey: .stringConvertible(messaging.prefetch),
            WorkerSettings.concurrency.logKey: .stringConvertible(messaging.concurrency),
            WorkerSettings.queueType.logKey: "\(messaging.queueType.rawValue)",
            WorkerSettings.retryDelays.logKey: "\(messaging.retryDelays)",
            WorkerSettings.httpPort.logKey: .stringConvertible(httpPort),
            WorkerSettings.logLevel.logKey: "\(logLevel)",
            WorkerSettings.logFormat.logKey: "\(logFormat.rawValue)",
            WorkerSettings.shutdownGracePeriod.logKey: "\(shutdownGracePeriod.settingText)",
            WorkerSettings.claimLease.logKey: "\(claimLease.settingText)",
        ]
        switch paymentProcessor {
        case .sandbox:
            metadata[PaymentSettings.processor.logKey] = "sandbox"
        case .stripe(let stripe):
            metadata[PaymentSettings.processor.logKey] = "stripe"
            metadata[PaymentSettings.stripeBaseURL.logKey] = "\(stripe.baseURL)"
            metadata[PaymentSettings.stripeTimeout.logKey] = "\(stripe.readTimeout.settingText)"
            metadata[PaymentSettings.stripeSearchLag.logKey] = "\(stripe.searchLag.settingText)"
        }
        return metadata
    }
}
