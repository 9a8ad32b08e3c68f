public import Metrics
public import Prometheus

/// A Prometheus registry and the swift-metrics factory that records into it.
///
/// The worker's decorators take the factory explicitly, so tests make their own instance with
/// ``init()`` and never touch the process-wide `MetricsSystem`, which can be bootstrapped only once;
/// the executable calls ``bootstrap()`` so that libraries using the global system (Hummingbird,
/// postgres-nio) record into the same registry.
public struct MetricsBootstrap: Sendable {
    /// What `GET /metrics` renders; give it to ``OperationsServer``.
    public let registry: PrometheusCollectorRegistry
    /// Records into ``registry``; give it to the decorators and adapters that take a `MetricsFactory`.
    public let factory: any MetricsFactory

    /// A fresh registry and factory, not installed anywhere.
    public init() {
        let registry = PrometheusCollectorRegistry()
        self.registry = registry
        factory = DocumentedMetricsFactory(registry: registry, durationBuckets: Self.durationBuckets, valueBuckets: Self.valueBuckets)
    }

    /// Buckets of every timer: from 1 ms, since a publish confirm on a nearby broker takes about that,
    /// to 30 s, since a command waiting on a slow payment processor can take that long.
    static let durationBuckets: [Duration] = [
        .milliseconds(1), .microseconds(2500), .milliseconds(5), .milliseconds(10), .milliseconds(25),
        .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
        .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10), .seconds(30),
    ]

    /// Buckets of every value recorder: counts and sizes from one to a million.
    static let valueBuckets: [Double] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000]

    /// The process's instance, installed into `MetricsSystem` the first time; later calls return the same one.
    public static func bootstrap() -> MetricsBootstrap {
        global
    }

    private static let global: MetricsBootstrap = {
        let metrics = MetricsBootstrap()
        MetricsSystem.bootstrap(metrics.factory)
        return metrics
    }()
}
