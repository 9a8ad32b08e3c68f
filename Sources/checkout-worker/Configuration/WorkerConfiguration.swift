import CheckoutMessaging
import CheckoutOperations
import CheckoutPayments
import Configuration
import Foundation
import Logging
import RabbitMQ

/// The worker's settings, read and checked once at start-up: flags first, then the environment,
/// then the contract's defaults.
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
    /// Stripe, 5 s plus CHECKOUT_STRIPE_TIMEOUT), short enough that a crashed worker's commands are soon taken over.
    var claimLease: Duration

    /// Reads every setting; the first bad one throws a ``ConfigurationError`` naming it.
    init(reading config: ConfigReader) throws(ConfigurationError) {
        func string(_ setting: Setting) -> String? {
            config.string(forKey: ConfigKey(setting.key), isSecret: setting.isSecret).flatMap { $0.isEmpty ? nil : $0 }
        }
        func integer(_ setting: Setting, in range: ClosedRange<Int>, default defaultValue: Int) throws(ConfigurationError) -> Int {
            guard let text = string(setting) else { return defaultValue }
            guard let value = Int(text.trimmingCharacters(in: .whitespaces)), range.contains(value) else { throw setting.invalid(text) }
            return value
        }
        func duration(_ setting: Setting, default defaultValue: String) throws(ConfigurationError) -> Duration {
            let text = string(setting) ?? defaultValue
            guard let delay = try? RetryDelays.Delay(parsing: text.trimmingCharacters(in: .whitespaces)) else { throw setting.invalid(text) }
            return delay.duration
        }
        func file(_ setting: Setting) throws(ConfigurationError) -> String? {
            guard let path = string(setting) else { return nil }
            guard FileManager.default.isReadableFile(atPath: path) else { throw setting.invalid(path) }
            return path
        }

        let tls = AMQPTLSConfiguration(
            caFile: try file(Settings.amqpCAFile),
            certificateFile: try file(Settings.amqpCertFile),
            keyFile: try file(Settings.amqpKeyFile)
        )
        if (tls.certificateFile == nil) != (tls.keyFile == nil) {
            throw Settings.amqpCertFile.invalid(tls.certificateFile ?? "")
        }
        let urls = string(Settings.amqpURL) ?? "amqp://guest:guest@localhost:5672/%2F"
        do {
            amqp = try AMQPConfiguration(urls: urls, tls: tls)
        } catch {
            throw Settings.amqpURL.invalid(SecretMasking.maskingPasswords(in: urls))
        }
        amqp.connectionName = "checkout-worker@\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier)"

        let databaseURL = string(Settings.databaseURL) ?? "sqlite://checkout.sqlite"
        let scheme = databaseURL.lowercased()
        guard ["sqlite://", "postgres://", "postgresql://", "memory://"].contains(where: { scheme.hasPrefix($0) }),
              databaseURL.count > "sqlite://".count || scheme == "memory://"
        else {
            throw Settings.databaseURL.invalid(SecretMasking.maskingPasswords(in: databaseURL))
        }
        self.databaseURL = databaseURL
        catalogFile = try file(Settings.catalogFile)

        switch string(Settings.paymentProcessor) ?? "sandbox" {
        case "sandbox":
            paymentProcessor = .sandbox
        case "stripe":
            guard let apiKey = string(Settings.stripeAPIKey) else { throw Settings.stripeAPIKey.invalid("") }
            let baseURL = string(Settings.stripeBaseURL) ?? "https://api.stripe.com"
            let readTimeout = try duration(Settings.stripeTimeout, default: "30s")
            let searchLag = try duration(Settings.stripeSearchLag, default: "60s")
            do {
                paymentProcessor = .stripe(try StripeConfiguration(apiKey: apiKey, baseURL: baseURL, readTimeout: readTimeout, searchLag: searchLag))
            } catch {
                throw Settings.stripeBaseURL.invalid(baseURL)
            }
        case let other:
            throw Settings.paymentProcessor.invalid(other)
        }

        // A command mostly waits (database, payment gateway, broker confirms), so the worker handles every
        // delivery it holds at once: the prefetch of each command queue. Cores are no bound for waiting.
        let prefetch = try integer(Settings.prefetch, in: 1...65535, default: 50)
        let concurrency = try integer(Settings.concurrency, in: 1...1000, default: min(prefetch * CommandKind.allCases.count, 1000))
        messaging = MessagingConfiguration(concurrency: concurrency)
        messaging.prefetch = UInt16(prefetch)
        if let text = string(Settings.queueType) {
            guard let queueType = QueueType(rawValue: text) else { throw Settings.queueType.invalid(text) }
            messaging.queueType = queueType
        }
        if let text = string(Settings.retryDelays) {
            do {
                messaging.retryDelays = try RetryDelays(text)
            } catch {
                throw Settings.retryDelays.invalid(text)
            }
        }
        // A command holds a connection for one statement at a time, so a few connections serve many commands;
        // one PostgreSQL serves every replica, and each connection costs it a process.
        databasePoolSize = try integer(Settings.databasePoolSize, in: 1...100, default: 10)
        httpPort = try integer(Settings.httpPort, in: 0...65535, default: 8080)

        let level = string(Settings.logLevel) ?? "info"
        guard let logLevel = Logger.Level(rawValue: level) else { throw Settings.logLevel.invalid(level) }
        self.logLevel = logLevel
        let format = string(Settings.logFormat) ?? "json"
        guard let logFormat = LogFormat(rawValue: format) else { throw Settings.logFormat.invalid(format) }
        self.logFormat = logFormat

        shutdownGracePeriod = try duration(Settings.shutdownGracePeriod, default: "30s")
        claimLease = try duration(Settings.claimLease, default: "2m")
        guard claimLease >= .seconds(1) else { throw Settings.claimLease.invalid(string(Settings.claimLease) ?? "") }
    }

    /// The effective configuration for the start-up log line, passwords and keys masked.
    var loggable: Logger.Metadata {
        let payment: String = switch paymentProcessor {
        case .sandbox: "sandbox"
        case .stripe(let stripe): "stripe (\(stripe.baseURL), key ***, timeout \(stripe.readTimeout))"
        }
        return [
            Settings.amqpURL.environmentName: "\(amqp.endpoints.map(\.description).joined(separator: ","))",
            Settings.amqpCAFile.environmentName: "\(amqp.tls.caFile ?? "none")",
            Settings.amqpCertFile.environmentName: "\(amqp.tls.certificateFile ?? "none")",
            Settings.databaseURL.environmentName: "\(SecretMasking.maskingPasswords(in: databaseURL))",
            Settings.databasePoolSize.environmentName: "\(databasePoolSize)",
            Settings.catalogFile.environmentName: "\(catalogFile ?? "none")",
            Settings.paymentProcessor.environmentName: "\(payment)",
            Settings.prefetch.environmentName: "\(messaging.prefetch)",
            Settings.concurrency.environmentName: "\(messaging.concurrency)",
            Settings.queueType.environmentName: "\(messaging.queueType.rawValue)",
            Settings.retryDelays.environmentName: "\(messaging.retryDelays)",
            Settings.httpPort.environmentName: "\(httpPort)",
            Settings.logLevel.environmentName: "\(logLevel)",
            Settings.logFormat.environmentName: "\(logFormat.rawValue)",
            Settings.shutdownGracePeriod.environmentName: "\(shutdownGracePeriod)",
            Settings.claimLease.environmentName: "\(claimLease)",
        ]
    }
}
