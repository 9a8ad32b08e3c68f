import ArgumentParser
import Configuration
import Foundation

/// Every setting as a flag; a flag wins over its environment variable.
struct SettingsOptions: ParsableArguments {
    @Option(help: "Broker URLs, comma-separated for cluster nodes (CHECKOUT_AMQP_URL; default amqp://guest:guest@localhost:5672/%2F).")
    var amqpURL: String?
    @Option(help: "CA certificate for amqps:// (CHECKOUT_AMQP_CA_FILE).")
    var amqpCAFile: String?
    @Option(help: "Client certificate for amqps:// (CHECKOUT_AMQP_CERT_FILE).")
    var amqpCertFile: String?
    @Option(help: "Client key for amqps:// (CHECKOUT_AMQP_KEY_FILE).")
    var amqpKeyFile: String?
    @Option(help: "sqlite://PATH, postgres://user:pass@host:port/db or memory:// (CHECKOUT_DATABASE_URL; default sqlite://checkout.sqlite).")
    var databaseURL: String?
    @Option(help: "Database connections at most, on SQLite readers beside the one writer (CHECKOUT_DATABASE_POOL_SIZE; default twice the concurrency).")
    var databasePoolSize: String?
    @Option(help: "Products to import (upsert) at start-up, as `catalog import` does (CHECKOUT_CATALOG_FILE; default none).")
    var catalogFile: String?
    @Option(help: "sandbox or stripe (CHECKOUT_PAYMENT_PROCESSOR; default sandbox).")
    var paymentProcessor: String?
    @Option(help: "Stripe base URL (CHECKOUT_STRIPE_BASE_URL; default https://api.stripe.com). The key is read from CHECKOUT_STRIPE_API_KEY only.")
    var stripeBaseURL: String?
    @Option(help: "The longest wait for a Stripe answer before the payment is retried (CHECKOUT_STRIPE_TIMEOUT; default 30s).")
    var stripeTimeout: String?
    @Option(help: "How long Stripe's search may not show a charge yet; a refund waits that long for it (CHECKOUT_STRIPE_SEARCH_LAG; default 60s).")
    var stripeSearchLag: String?
    @Option(help: "Unacknowledged deliveries per consumer (CHECKOUT_PREFETCH; default 50).")
    var prefetch: String?
    @Option(help: "Commands handled at once (CHECKOUT_CONCURRENCY; default twice the prefetch, both command queues).")
    var concurrency: String?
    @Option(help: "classic or quorum (CHECKOUT_QUEUE_TYPE; default classic).")
    var queueType: String?
    @Option(help: "Delays before each retry (CHECKOUT_RETRY_DELAYS; default 1s,5s,30s,2m,10m).")
    var retryDelays: String?
    @Option(help: "Port of /health/live, /health/ready and /metrics (CHECKOUT_HTTP_PORT; default 8080).")
    var httpPort: String?
    @Option(help: "trace, debug, info, notice, warning, error or critical (CHECKOUT_LOG_LEVEL; default info).")
    var logLevel: String?
    @Option(help: "json or text (CHECKOUT_LOG_FORMAT; default json).")
    var logFormat: String?
    @Option(help: "Time to finish in-flight commands after SIGTERM (CHECKOUT_SHUTDOWN_GRACE_PERIOD; default 30s).")
    var shutdownGracePeriod: String?
    @Option(help: "How long a command being handled is kept from other workers; what a crashed worker's commands wait (CHECKOUT_CLAIM_LEASE; default 2m).")
    var claimLease: String?

    /// Flags first, then `environment`.
    func reader(environment: [String: String]) -> ConfigReader {
        let flags: [(Setting, String?)] = [
            (Settings.amqpURL, amqpURL), (Settings.amqpCAFile, amqpCAFile), (Settings.amqpCertFile, amqpCertFile),
            (Settings.amqpKeyFile, amqpKeyFile), (Settings.databaseURL, databaseURL), (Settings.databasePoolSize, databasePoolSize),
            (Settings.catalogFile, catalogFile), (Settings.paymentProcessor, paymentProcessor), (Settings.stripeBaseURL, stripeBaseURL),
            (Settings.stripeTimeout, stripeTimeout), (Settings.stripeSearchLag, stripeSearchLag), (Settings.prefetch, prefetch),
            (Settings.concurrency, concurrency), (Settings.queueType, queueType), (Settings.retryDelays, retryDelays),
            (Settings.httpPort, httpPort), (Settings.logLevel, logLevel), (Settings.logFormat, logFormat),
            (Settings.shutdownGracePeriod, shutdownGracePeriod), (Settings.claimLease, claimLease),
        ]
        var values: [AbsoluteConfigKey: ConfigValue] = [:]
        for case let (setting, value?) in flags {
            values[AbsoluteConfigKey(ConfigKey(setting.key))] = ConfigValue(.string(value), isSecret: setting.isSecret)
        }
        return ConfigReader(providers: [
            InMemoryProvider(name: "flags", values: values),
            EnvironmentVariablesProvider(environmentVariables: environment, secretsSpecifier: .specific([Settings.stripeAPIKey.environmentName])),
        ])
    }
}

extension SettingsOptions {
    /// The configuration from these flags and the process environment; a bad setting ends the
    /// process with one line naming it (exit code 78, EX_CONFIG).
    func workerConfiguration() throws -> WorkerConfiguration {
        do {
            return try WorkerConfiguration(reading: reader(environment: ProcessInfo.processInfo.environment))
        } catch {
            FileHandle.standardError.write(Data("checkout-worker: \(error)\n".utf8))
            throw ExitCode(78)
        }
    }
}
