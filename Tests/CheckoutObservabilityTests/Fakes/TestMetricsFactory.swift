import CoreMetrics
import Synchronization

/// A metrics backend for one test, injected into the decorators so no test bootstraps the
/// process-wide metrics system.
final class TestMetricsFactory: MetricsFactory {
    private let storage = Mutex<[MetricEvent]>([])

    var events: [MetricEvent] { storage.withLock { $0 } }

    /// The sum of a counter's increments.
    func counter(_ label: String, _ dimensions: [String] = []) -> Int64 {
        events.filter { $0.kind == .counter && $0.label == label && $0.dimensions == dimensions }.map(\.value).reduce(0, +)
    }

    /// How many durations a timer recorded.
    func timings(_ label: String, _ dimensions: [String]) -> Int {
        events.filter { $0.kind == .timer && $0.label == label && $0.dimensions == dimensions }.count
    }

    func receive(_ event: MetricEvent) {
        storage.withLock { $0.append(event) }
    }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        TestMetricHandler(kind: .counter, label: label, dimensions: dimensions, factory: self)
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        TestMetricHandler(kind: .recorder, label: label, dimensions: dimensions, factory: self)
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        TestMetricHandler(kind: .timer, label: label, dimensions: dimensions, factory: self)
    }

    func destroyCounter(_ handler: any CounterHandler) {}
    func destroyRecorder(_ handler: any RecorderHandler) {}
    func destroyTimer(_ handler: any TimerHandler) {}
}
