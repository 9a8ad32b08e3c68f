import ArgumentParser
import CheckoutMessaging
import CheckoutOperations
import CheckoutPayments
import Configuration
import Logging
import RabbitMQ
import Testing

@testable import checkout_worker

/// The settings of CONTRACT.md's operating table: their defaults, and the one line a bad value stops with.
@Suite struct WorkerConfigurationTests {
    @Test func withNothingSetItRunsOnTheContractsDefaults() throws {
        let configuration = try WorkerConfiguration(reading: TestWorld.reader([:]))

        #expect(configuration.amqp.endpoints.map(\.description) == ["amqp://guest:***@localhost:5672/%2F"])
        #expect(configuration.databaseURL == "sqlite://checkout.sqlite")
        #expect(configuration.messaging.prefetch == 50)
        #expect(configuration.messaging.concurrency == 100)
        #expect(configuration.databasePoolSize == 10)
        #expect(configuration.messaging.queueType == .classic)
        #expect(configuration.messaging.retryDelays.description == "1s,5s,30s,2m,10m")
        #expect(configuration.httpPort == 8080)
        #expect(configuration.logFormat.rawValue == "json")
        #expect(configuration.logLevel == .info)
        #expect(configuration.claimLease == .seconds(120))
        guard case .sandbox = configuration.paymentProcessor else {
            Issue.record("the default processor is \(configuration.paymentProcessor), not the sandbox")
            return
        }
    }

    @Test(arguments: [
        ("CHECKOUT_PREFETCH", "abc"),
        ("CHECKOUT_PREFETCH", "0"),
        ("CHECKOUT_CONCURRENCY", "-1"),
        ("CHECKOUT_QUEUE_TYPE", "stream"),
        ("CHECKOUT_RETRY_DELAYS", "1s,soon"),
        ("CHECKOUT_HTTP_PORT", "70000"),
        ("CHECKOUT_DATABASE_URL", "mysql://db"),
        ("CHECKOUT_PAYMENT_PROCESSOR", "paypal"),
        ("CHECKOUT_LOG_FORMAT", "xml"),
        ("CHECKOUT_AMQP_URL", "http://broker"),
        ("CHECKOUT_AMQP_CA_FILE", "/no/such/ca.pem"),
        ("CHECKOUT_SHUTDOWN_GRACE_PERIOD", "forever"),
        ("CHECKOUT_CLAIM_LEASE", "999ms"),
        ("CHECKOUT_COMMANDS_EXCHANGE", "amq.topic"),
        ("CHECKOUT_SYNC_CART_QUEUE", "amq.carts"),
        ("CHECKOUT_PLACE_ORDER_QUEUE", "checkout.sync-cart"),
        ("CHECKOUT_EVENTS_EXCHANGE", "checkout.retry.events"),
        ("CHECKOUT_RETRY_QUEUE_PREFIX", "amq.retry"),
    ])
    func aBadValueIsRefusedNamingTheSettingAndWhatItAccepts(name: String, value: String) {
        #expect {
            try WorkerConfiguration(reading: TestWorld.reader([name: value]))
        } throws: { error in
            let message = "\(error)"
            return message.hasPrefix("\(name): '\(value)' is not valid") && message.contains("; expected ")
                && message.count > name.count + value.count + 30
        }
    }

    /// A template that could not fill the variable leaves it empty: taken as unset, it ran each replica
    /// on a database file of its own container, or on the sandbox processor, which takes no money.
    @Test(arguments: [("CHECKOUT_DATABASE_URL", "sqlite://checkout.sqlite"), ("CHECKOUT_PAYMENT_PROCESSOR", "sandbox")])
    func aSettingWhoseDefaultSuitsOnlyOnesOwnMachineIsRefusedEmpty(name: String, defaultValue: String) {
        for value in ["", " ", "\n"] {
            #expect {
                try WorkerConfiguration(reading: TestWorld.reader([name: value]))
            } throws: { error in
                "\(error)".hasPrefix("\(name): '' is not valid (set but empty, which would mean the default, \(defaultValue);")
            }
        }
    }

    @Test func anotherSettingGivenEmptyMeansItsDefault() throws {
        let configuration = try WorkerConfiguration(reading: TestWorld.reader(["CHECKOUT_PREFETCH": "", "CHECKOUT_LOG_LEVEL": ""]))

        #expect(configuration.messaging.prefetch == 50)
        #expect(configuration.logLevel == .info)
    }

    /// A TLS file is read only for amqps:// nodes: given with none, it would be ignored; and a node
    /// reached in plain text beside amqps:// ones would be believed encrypted.
    @Test(arguments: [
        ("CHECKOUT_AMQP_CA_FILE", "amqp://broker", "CHECKOUT_AMQP_CA_FILE"),
        ("CHECKOUT_AMQP_CERT_FILE", "amqp://broker", "CHECKOUT_AMQP_CERT_FILE"),
        ("CHECKOUT_AMQP_CA_FILE", "amqps://a,amqp://b", "CHECKOUT_AMQP_URL"),
    ])
    func aTLSFileWithANodeReachedInPlainTextIsRefused(file: String, urls: String, blamed: String) {
        func environment(_ urls: String) -> [String: String] {
            var environment = ["CHECKOUT_AMQP_URL": urls, file: "/dev/null"]
            // A certificate goes with its key.
            if file == "CHECKOUT_AMQP_CERT_FILE" { environment["CHECKOUT_AMQP_KEY_FILE"] = "/dev/null" }
            return environment
        }
        #expect {
            try WorkerConfiguration(reading: TestWorld.reader(environment(urls)))
        } throws: { error in
            "\(error)".hasPrefix("\(blamed): ")
        }
        #expect(throws: Never.self) { try WorkerConfiguration(reading: TestWorld.reader(environment("amqps://a,amqps://b"))) }
        #expect {
            try WorkerConfiguration(reading: TestWorld.reader(["CHECKOUT_AMQP_URL": "amqps://a,amqp://b"]))
        } throws: { error in
            "\(error)".hasPrefix("CHECKOUT_AMQP_URL: ")
        }
    }

    /// A retry queue prefix that every default name starts with is the mistake, not the names.
    @Test func aRetryQueuePrefixTheDefaultNamesStartWithIsBlamed() {
        #expect {
            try WorkerConfiguration(reading: TestWorld.reader(["CHECKOUT_RETRY_QUEUE_PREFIX": "checkout"]))
        } throws: { "\($0)".hasPrefix("CHECKOUT_RETRY_QUEUE_PREFIX: 'checkout' is not valid") }
        #expect {
            try WorkerConfiguration(reading: TestWorld.reader(["CHECKOUT_SYNC_CART_QUEUE": "checkout.retry.carts"]))
        } throws: { "\($0)".hasPrefix("CHECKOUT_SYNC_CART_QUEUE: 'checkout.retry.carts' is not valid") }
    }

    /// The broker URL's parser knows what is wrong with it; the one line says so, without the password.
    @Test(arguments: [
        ("amqp://user:s3cret@broker/a/b", "write / as %2F"), ("amqp://broker/%2F?heartbeat=1e3", "heartbeat must be a number"),
    ])
    func aBrokerURLIsRefusedSayingWhatIsWrongWithIt(url: String, reason: String) {
        #expect {
            try WorkerConfiguration(reading: TestWorld.reader(["CHECKOUT_AMQP_URL": url]))
        } throws: { error in
            "\(error)".hasPrefix("CHECKOUT_AMQP_URL: ") && "\(error)".contains(reason) && !"\(error)".contains("s3cret")
        }
    }

    /// swift-otel takes these and then traps (at start-up, at the first export, or at shutdown) or, for a
    /// port too long for an `Int`, exports to its default port instead. With traces exported, each is
    /// refused at start-up, naming it; without, none is read.
    @Test(arguments: [
        ("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"), ("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "grpc"),
        ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:65536"), ("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "collector:4318"),
        ("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://collector:99999999999999999999"),
        ("OTEL_BSP_MAX_EXPORT_BATCH_SIZE", "0"), ("OTEL_BSP_MAX_QUEUE_SIZE", "-1"),
        ("OTEL_PROPAGATORS", "tracecontext,baggage"), ("OTEL_PROPAGATORS", "b3"), ("OTEL_TRACES_SAMPLER", "xray"),
        ("OTEL_TRACES_SAMPLER", "parentbased_jaeger_remote"), ("OTEL_TRACES_EXPORTER", "zipkin"), ("OTEL_BSP_SCHEDULE_DELAY", "0"),
    ])
    func anOpenTelemetryValueTheExporterWouldTrapOnIsRefused(name: String, value: String) throws {
        let exporting = ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"]
        #expect {
            try WorkerConfiguration(reading: TestWorld.reader(exporting.merging([name: value]) { $1 }))
        } throws: { error in
            "\(error)".hasPrefix("\(name): '\(value)' is not valid; expected ")
        }
        #expect(try WorkerConfiguration(reading: TestWorld.reader(exporting)).exportsTraces)
        if !name.contains("ENDPOINT") {
            #expect(try WorkerConfiguration(reading: TestWorld.reader([name: value])).exportsTraces == false)
        }
    }

    @Test(arguments: [
        ("OTEL_PROPAGATORS", "tracecontext"), ("OTEL_PROPAGATORS", "none"), ("OTEL_TRACES_SAMPLER", "parentbased_traceidratio"),
        ("OTEL_TRACES_EXPORTER", "otlp"),
    ])
    func anOpenTelemetryValueTheExporterImplementsIsTaken(name: String, value: String) throws {
        let settings = ["OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", name: value]
        #expect(try WorkerConfiguration(reading: TestWorld.reader(settings)).exportsTraces)
    }

    /// CONTRACT.md: "every name is configurable".
    @Test func everyExchangeAndQueueIsNamedAsConfigured() throws {
        let messaging = try WorkerConfiguration(
            reading: TestWorld.reader([
                "CHECKOUT_COMMANDS_EXCHANGE": "shop.commands", "CHECKOUT_EVENTS_EXCHANGE": "shop.events",
                "CHECKOUT_DEAD_LETTER": "shop.dead",
                "CHECKOUT_SYNC_CART_QUEUE": "shop.carts", "CHECKOUT_PLACE_ORDER_QUEUE": "shop.orders",
                "CHECKOUT_RETRY_QUEUE_PREFIX": "shop.later",
            ])
        ).messaging

        let topology = CheckoutTopology.make(messaging)
        #expect(Set(topology.exchanges.map(\.name)) == ["shop.commands", "shop.events", "shop.dead"])
        #expect(topology.queues.map(\.name).filter { !$0.hasPrefix("shop.later.") } == ["shop.dead", "shop.carts", "shop.orders"])
        #expect(topology.queues.count == 3 + 2 * messaging.retryDelays.delays.count)
        #expect(messaging.retryQueue(for: .placeOrder, retry: 0) == "shop.later.place-order.1s")
    }

    /// A name is an AMQP short string; a retry queue's adds up to 30 bytes to its prefix.
    @Test func aNameFitsInAMQPsShortStrings() throws {
        #expect(throws: Never.self) {
            try WorkerConfiguration(
                reading: TestWorld.reader([
                    "CHECKOUT_SYNC_CART_QUEUE": String(repeating: "q", count: 255),
                    "CHECKOUT_RETRY_QUEUE_PREFIX": String(repeating: "r", count: 225),
                ]))
        }
        #expect(throws: ConfigurationError.self) {
            try WorkerConfiguration(reading: TestWorld.reader(["CHECKOUT_SYNC_CART_QUEUE": String(repeating: "q", count: 256)]))
        }
        #expect(throws: ConfigurationError.self) {
            try WorkerConfiguration(reading: TestWorld.reader(["CHECKOUT_RETRY_QUEUE_PREFIX": String(repeating: "r", count: 226)]))
        }
    }

    @Test func stripeNeedsItsKeyAndTakesAReadTimeout() throws {
        #expect {
            try WorkerConfiguration(reading: TestWorld.reader(["CHECKOUT_PAYMENT_PROCESSOR": "stripe"]))
        } throws: { "\($0)".hasPrefix("CHECKOUT_STRIPE_API_KEY:") }
        #expect {
            try WorkerConfiguration(
                reading: TestWorld.reader([
                    "CHECKOUT_PAYMENT_PROCESSOR": "stripe", "CHECKOUT_STRIPE_API_KEY": "sk_test_1", "CHECKOUT_STRIPE_TIMEOUT": "0s",
                ]))
        } throws: { "\($0)".hasPrefix("CHECKOUT_STRIPE_TIMEOUT: '0s'") }

        let configuration = try WorkerConfiguration(
            reading: TestWorld.reader([
                "CHECKOUT_PAYMENT_PROCESSOR": "stripe", "CHECKOUT_STRIPE_API_KEY": "sk_test_secret",
                "CHECKOUT_STRIPE_BASE_URL": "http://127.0.0.1:9999", "CHECKOUT_STRIPE_TIMEOUT": "1500ms",
            ]))
        guard case .stripe(let stripe) = configuration.paymentProcessor else {
            Issue.record("CHECKOUT_PAYMENT_PROCESSOR=stripe gave \(configuration.paymentProcessor)")
            return
        }
        #expect(stripe.baseURL == "http://127.0.0.1:9999")
        #expect(stripe.readTimeout == .milliseconds(1500))
        #expect(!"\(configuration.loggable)".contains("sk_test_secret"))
    }

    /// A key from a secret mounted as a file ends with its newline: async-http-client refused it as a
    /// header value at every charge, which counted as Stripe not answering, so every order waited out its
    /// retries; the error said so with the key in it. The newline is trimmed; a key with a space or a
    /// control character inside is refused at start-up, naming the variable and not the key.
    @Test func aStripeKeyIsTrimmedOfItsNewlineAndOneWithSpacesInsideIsRefused() throws {
        let configuration = try WorkerConfiguration(
            reading: TestWorld.reader(["CHECKOUT_PAYMENT_PROCESSOR": "stripe", "CHECKOUT_STRIPE_API_KEY": "sk_test_secret\n"]))
        guard case .stripe(let stripe) = configuration.paymentProcessor else {
            Issue.record("CHECKOUT_PAYMENT_PROCESSOR=stripe gave \(configuration.paymentProcessor)")
            return
        }
        #expect(stripe.apiKey == "sk_test_secret")
        for key in ["sk_test secret", "sk_test_\u{7}secret", "   "] {
            #expect {
                try WorkerConfiguration(
                    reading: TestWorld.reader(["CHECKOUT_PAYMENT_PROCESSOR": "stripe", "CHECKOUT_STRIPE_API_KEY": key]))
            } throws: { "\($0)".hasPrefix("CHECKOUT_STRIPE_API_KEY: '***' is not valid") }
        }
    }

    @Test func theStartUpLineNamesEachSettingByItsLogKeyWithNumbersAsNumbers() throws {
        let loggable = try WorkerConfiguration(reading: TestWorld.reader(["CHECKOUT_SHUTDOWN_GRACE_PERIOD": "1500ms"])).loggable

        #expect(loggable.keys.allSatisfy { $0.wholeMatch(of: /[a-z]+(\.[a-z_]+)+/) != nil }, "\(loggable.keys.sorted())")
        #expect(loggable["checkout.amqp.ca_file"] == "none")
        #expect(loggable["checkout.shutdown.grace_period"] == "1500ms")
        #expect(loggable["checkout.claim.lease"] == "2m")
        guard case .stringConvertible(let prefetch) = loggable["checkout.prefetch"] else {
            Issue.record("checkout.prefetch is logged as \(String(describing: loggable["checkout.prefetch"])), not a number")
            return
        }
        #expect(prefetch as? UInt16 == 50)
    }

    @Test func aFlagWinsOverItsEnvironmentVariable() throws {
        let run = try RunSubcommand.parse(["--prefetch", "300", "--queue-type", "quorum"])
        let reader = ConfigReader(
            flags: [run.broker, run.database, run.payments, run.worker],
            environment: ["CHECKOUT_PREFETCH": "10", "CHECKOUT_CONCURRENCY": "3"])
        let configuration = try WorkerConfiguration(reading: reader)

        #expect(configuration.messaging.prefetch == 300)
        #expect(configuration.messaging.queueType == .quorum)
        #expect(configuration.messaging.concurrency == 3)
    }
}
