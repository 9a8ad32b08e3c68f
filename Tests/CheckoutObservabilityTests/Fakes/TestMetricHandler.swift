import CoreMetrics

/// Every kind of metric handler, passing each value to its ``TestMetricsFactory``.
final class TestMetricHandler: CounterHandler, RecorderHandler, TimerHandler {
    private let kind: MetricEvent.Kind
    private let label: String
    private let dimensions: [String]
    private let factory: TestMetricsFactory

    init(kind: MetricEvent.Kind, label: String, dimensions: [(String, String)], factory: TestMetricsFactory) {
        self.kind = kind
        self.label = label
        self.dimensions = dimensions.map { "\($0)=\($1)" }
        self.factory = factory
    }

    func increment(by amount: Int64) { emit(amount) }
    func reset() {}
    func record(_ value: Int64) { emit(value) }
    func record(_ value: Double) { emit(Int64(value)) }
    func recordNanoseconds(_ duration: Int64) { emit(duration) }

    private func emit(_ value: Int64) {
        factory.receive(MetricEvent(kind: kind, label: label, dimensions: dimensions, value: value))
    }
}
