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
        .executable(name: "checkout-bench", targets: ["checkout-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.36.0"),
        .package(url: "https://github.com/vapor/sqlite-kit.git", from: "4.5.2"),
        .package(url: "https://github.com/vapor/postgres-kit.git", from: "2.17.0"),
        .package(url: "https://github.com/vapor/sqlite-nio.git", from: "1.13.2"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
    ],
    targets: [
        // The heart: models, the two use cases, their outputs and the ports they need. Foundation only.
        .target(name: "CheckoutDomain", swiftSettings: swiftSettings),
        // Logging and metrics decorators around the use cases and their outputs.
        .target(
            name: "CheckoutObservability",
            dependencies: [
                "CheckoutDomain",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            swiftSettings: swiftSettings
        ),
        // Durable state: every port over SQLite or PostgreSQL through one SQLKit implementation, or in memory.
        .target(
            name: "CheckoutPersistence",
            dependencies: [
                "CheckoutDomain",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "_ConnectionPoolModule", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        // librabbitmq (rabbitmq-c) as a Clang module.
        .systemLibrary(
            name: "CRabbitMQ",
            pkgConfig: "librabbitmq",
            providers: [.apt(["librabbitmq-dev"]), .brew(["rabbitmq-c"])]
        ),
        // The only Swift code that calls amqp_*.
        .target(
            name: "RabbitMQ",
            dependencies: [
                "CRabbitMQ",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),

        // The transport's ceiling: the same consume → publish → ack loop in plain C.
        .target(name: "CRawAMQPLoop", dependencies: ["CRabbitMQ"]),
        .executableTarget(
            name: "checkout-bench",
            dependencies: ["RabbitMQ", "CRawAMQPLoop"],
            swiftSettings: swiftSettings
        ),

        .testTarget(name: "CheckoutDomainTests", dependencies: ["CheckoutDomain"], swiftSettings: swiftSettings),
        .testTarget(
            name: "CheckoutObservabilityTests",
            dependencies: [
                "CheckoutObservability",
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
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "RabbitMQTests", dependencies: ["RabbitMQ"], swiftSettings: swiftSettings),
    ]
)
