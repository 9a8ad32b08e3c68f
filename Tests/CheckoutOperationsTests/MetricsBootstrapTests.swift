import CheckoutOperations
import Metrics
import Prometheus
import Testing

@Suite struct MetricsBootstrapTests {
    @Test func keepsWhatEachInstanceRecordsInItsOwnRegistry() {
        let first = MetricsBootstrap()
        let second = MetricsBootstrap()

        Counter(label: "checkout_test_total", factory: first.factory).increment()

        #expect(first.registry.emitToString().contains("checkout_test_total 1"))
        #expect(!second.registry.emitToString().contains("checkout_test_total"))
    }

    @Test func bucketsTimersFromOneMillisecondToThirtySeconds() {
        let metrics = MetricsBootstrap()

        Timer(label: "checkout_publish_confirm_duration_seconds", factory: metrics.factory).record(duration: .microseconds(800))

        let text = metrics.registry.emitToString()
        #expect(text.contains(#"checkout_publish_confirm_duration_seconds_bucket{le="0.001"} 1"#))
        #expect(text.contains(#"checkout_publish_confirm_duration_seconds_bucket{le="30.0"} 1"#))
    }

    @Test func bootstrapsTheProcessOnceAndReturnsTheSameRegistryEveryTime() {
        let first = MetricsBootstrap.bootstrap()
        let second = MetricsBootstrap.bootstrap()

        Counter(label: "checkout_global_test_total").increment()

        #expect(first.registry === second.registry)
        #expect(first.registry.emitToString().contains("checkout_global_test_total 1"))
    }
}
