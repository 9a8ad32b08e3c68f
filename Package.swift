// swift-tools-version: 6.1
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "checkout-worker",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "checkout-worker", targets: ["checkout-worker"]),
        // For the benchmark package (Benchmarks/): the transport it measures, and librabbitmq for its C loop.
        .library(name: "RabbitMQ", targets: ["RabbitMQ"]),
        .library(name: "CRabbitMQ", targets: ["CRabbitMQ"]),
    ],
    // Every package the worker is built from at the exact version it is built and tested with, so that
    // a build (the image's among them) does not take whatever was released since. Package.resolved
    // would pin the indirect ones, but it cannot be written here: the development machines' package
    // copies carry commit ids other than GitHub's (docs/deploy.md, "Dependency versions").
    dependencies: [
        .package(url: "https://github.com/apple/swift-log.git", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", exact: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", exact: "1.7.3"),
        .package(url: "https://github.com/apple/swift-nio.git", exact: "2.101.3"),
        .package(url: "https://github.com/swift-server/async-http-client.git", exact: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", exact: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", exact: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", exact: "2.13.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-configuration.git", exact: "1.4.0"),
        .package(url: "https://github.com/jpsim/Yams.git", exact: "6.2.2"),
        .package(url: "https://github.com/vapor/sql-kit.git", exact: "3.36.0"),
        .package(url: "https://github.com/vapor/sqlite-kit.git", exact: "4.5.2"),
        .package(url: "https://github.com/vapor/postgres-kit.git", exact: "2.17.0"),
        .package(url: "https://github.com/vapor/sqlite-nio.git", exact: "1.13.2"),
        // Exact whatever the others do: DatabaseFault imports its underscored _ConnectionPoolModule, which
        // has no stable API (docs/architecture.md, "One underscored import, pinned").
        .package(url: "https://github.com/vapor/postgres-nio.git", exact: "1.33.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", exact: "4.5.2"),
        // OTLP over HTTP only: the worker is gRPC-free, so the gRPC exporter's trait stays off.
        .package(url: "https://github.com/swift-otel/swift-otel.git", exact: "1.6.0", traits: ["OTLPHTTP"]),
        // The packages the ones above depend on: no target uses them, so SwiftPM warns that each is unused.
        .package(url: "https://github.com/vapor/async-kit.git", exact: "1.22.0"),
        .package(url: "https://github.com/apple/swift-algorithms.git", exact: "1.2.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", exact: "1.7.4"),
        .package(url: "https://github.com/apple/swift-async-algorithms.git", exact: "1.1.4"),
        .package(url: "https://github.com/apple/swift-atomics.git", exact: "1.3.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", exact: "1.21.1"),
        .package(url: "https://github.com/apple/swift-collections.git", exact: "1.6.0"),
        .package(url: "https://github.com/apple/swift-http-structured-headers.git", exact: "1.7.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", exact: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", exact: "1.35.2"),
        .package(url: "https://github.com/apple/swift-nio-http2.git", exact: "1.46.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", exact: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-transport-services.git", exact: "1.28.0"),
        .package(url: "https://github.com/apple/swift-numerics.git", exact: "1.1.1"),
        .package(url: "https://github.com/apple/swift-protobuf.git", exact: "1.39.0"),
        .package(url: "https://github.com/apple/swift-service-context.git", exact: "1.5.1"),
        .package(url: "https://github.com/apple/swift-system.git", exact: "1.8.1"),
        .package(url: "https://github.com/swift-otel/swift-w3c-trace-context.git", exact: "1.0.0"),
    ],
    targets: [
        // The heart: models, the two use cases, their outputs and the ports they need. Foundation only.
        .target(name: "CheckoutDomain", swiftSettings: swiftSettings),
        // JSON written straight to bytes, for the hot paths: result events and log lines.
        .target(name: "JSONWriting", swiftSettings: swiftSettings),
        // JSON read without Codable, for the hot paths: command bodies and stored cart lines.
        .target(name: "JSONReading", swiftSettings: swiftSettings),
        // Logging and metrics decorators around the use cases and their outputs.
        .target(
            name: "CheckoutObservability",
            dependencies: [
                "CheckoutDomain",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: swiftSettings
        ),
        // Durable state: every port over SQLite or PostgreSQL through one SQLKit implementation, or in memory.
        .target(
            name: "CheckoutPersistence",
            dependencies: [
                "CheckoutDomain",
                "JSONReading",
                "JSONWriting",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "_ConnectionPoolModule", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // What an operator meets: health and metrics endpoints, JSON logs, secrets masked in start-up output.
        .target(
            name: "CheckoutOperations",
            dependencies: [
                "JSONWriting",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // librabbitmq (rabbitmq-c) as a Clang module.
        .systemLibrary(
            name: "CRabbitMQ",
            pkgConfig: "librabbitmq",
            providers: [.apt(["librabbitmq-dev"]), .brew(["rabbitmq-c"])]
        ),
        // The publish-frame encoder in C, so that publishes can be gathered into one write.
        .target(name: "CRabbitMQShim", dependencies: ["CRabbitMQ"]),
        // The only Swift code that calls amqp_*.
        .target(
            name: "RabbitMQ",
            dependencies: [
                "CRabbitMQ",
                "CRabbitMQShim",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // Contract v1 over RabbitMQ: decode commands, call the use cases, publish their outcomes as events.
        .target(
            name: "CheckoutMessaging",
            dependencies: [
                "CheckoutDomain",
                "CheckoutObservability",
                "JSONReading",
                "JSONWriting",
                "RabbitMQ",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        // An in-memory broker, for running the command handler without RabbitMQ.
        .target(
            name: "CheckoutMessagingTesting",
            dependencies: ["CheckoutMessaging", "RabbitMQ"],
            swiftSettings: swiftSettings
        ),
        // Payment processors: the in-process sandbox and Stripe over HTTPS.
        .target(
            name: "CheckoutPayments",
            dependencies: [
                "CheckoutDomain",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // A fake Stripe API on SwiftNIO, started in-process by the payment tests and the chaos suite.
        .target(
            name: "CheckoutPaymentsTesting",
            dependencies: [
                "CheckoutObservability",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),

        // The composition root: configuration, the CLI, and the ServiceGroup that runs it all.
        .executableTarget(
            name: "checkout-worker",
            dependencies: [
                "CheckoutDomain",
                "CheckoutObservability",
                "CheckoutMessaging",
                "CheckoutPersistence",
                "CheckoutPayments",
                "CheckoutOperations",
                "RabbitMQ",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "OTel", package: "swift-otel"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: swiftSettings,
            // The toolchain's lld, with none of the executable's own symbols exported (nothing loads it as a
            // library or looks them up): a PostgreSQL worker's peak RSS is 4–5 MiB lower, in code pages
            // (BENCHMARKS.md, "The executable's resident pages").
            linkerSettings: [.unsafeFlags(["-use-ld=lld", "-Xlinker", "--no-export-dynamic"], .when(platforms: [.linux]))]
        ),

        // Fixtures, output spies, payment processor fakes and scratch databases that more than one test target uses.
        .target(
            name: "CheckoutTestSupport",
            dependencies: [
                "CheckoutDomain",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            path: "Tests/CheckoutTestSupport",
            swiftSettings: swiftSettings
        ),

        .testTarget(
            name: "CheckoutDomainTests",
            dependencies: ["CheckoutDomain", "CheckoutPersistence", "CheckoutTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "JSONWritingTests", dependencies: ["JSONWriting"], swiftSettings: swiftSettings),
        .testTarget(name: "JSONReadingTests", dependencies: ["JSONReading"], swiftSettings: swiftSettings),
        .testTarget(
            name: "CheckoutObservabilityTests",
            dependencies: [
                "CheckoutObservability",
                "CheckoutTestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CheckoutPersistenceTests",
            dependencies: [
                "CheckoutDomain",
                "CheckoutPersistence",
                "CheckoutTestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CheckoutOperationsTests",
            dependencies: [
                "CheckoutOperations",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "RabbitMQTests", dependencies: ["RabbitMQ", "CRabbitMQShim"], swiftSettings: swiftSettings),
        .testTarget(
            name: "CheckoutPaymentsTests",
            dependencies: [
                "CheckoutDomain",
                "CheckoutPayments",
                "CheckoutPaymentsTesting",
                "CheckoutTestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CheckoutMessagingTests",
            dependencies: [
                "CheckoutDomain",
                "CheckoutMessaging",
                "CheckoutMessagingTesting",
                "CheckoutPayments",
                "CheckoutPersistence",
                "JSONReading",
                "RabbitMQ",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CheckoutWorkerTests",
            dependencies: [
                "checkout-worker",
                "CheckoutTestSupport",
                "CheckoutDomain",
                "CheckoutMessaging",
                "CheckoutObservability",
                "CheckoutOperations",
                "CheckoutPersistence",
                "CheckoutPayments",
                "CheckoutPaymentsTesting",
                "RabbitMQ",
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
