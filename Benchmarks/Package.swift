// swift-tools-version: 6.1
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

// The benchmarks, in a package of their own so that the worker's package carries neither them nor their
// dependencies. They drive the worker's executable, built in the package above (BENCHMARKS.md).
let package = Package(
    name: "checkout-benchmarks",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "checkout-bench", targets: ["checkout-bench"])
    ],
    dependencies: [
        // The worker's package; named, because a path dependency's name is otherwise its folder's, which
        // depends on where it was checked out.
        .package(name: "checkout-worker", path: ".."),
        // At exact versions like the worker's (docs/deploy.md, "Dependency versions"), so that a measurement
        // is not of whatever was released since.
        .package(url: "https://github.com/apple/swift-argument-parser.git", exact: "1.8.2"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift.git", exact: "0.2.0"),
        .package(url: "https://github.com/apple/swift-log.git", exact: "1.16.2"),
    ],
    targets: [
        // The transport's ceiling: the same consume → publish → ack loop in plain C.
        .target(
            name: "CRawAMQPLoop",
            dependencies: [.product(name: "CRabbitMQ", package: "checkout-worker")]
        ),
        // The benchmarks: the transport alone, and the whole worker end to end, each against the C loop.
        .executableTarget(
            name: "checkout-bench",
            dependencies: [
                "CRawAMQPLoop",
                .product(name: "RabbitMQ", package: "checkout-worker"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),

        .testTarget(
            name: "CheckoutBenchTests",
            dependencies: ["checkout-bench", .product(name: "Histogram", package: "hdrhistogram-swift")],
            swiftSettings: swiftSettings
        ),
    ]
)
