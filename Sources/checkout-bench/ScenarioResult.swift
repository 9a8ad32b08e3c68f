/// What the benchmark measured for one row of its table.
struct ScenarioResult: Sendable {
    /// `nil` for the C loop itself.
    var scenario: Scenario?
    /// Flat-out throughput of each round, commands per second.
    var peakRates: [Double]
    /// The C loop's flat-out throughput in the rounds run right before those, for the ratio.
    var ceilingRates: [Double]
    /// The rate of the latency rounds: half the median peak.
    var latencyRate: Double
    /// Every latency-round command, publish to answer.
    var latencies: LatencySummary
    /// Each worker process's resident memory at the end of the scenario.
    var memory: [ProcessMemory]

    var peak: Double { peakRates.median }
    var ceiling: Double { ceilingRates.median }
    var ratio: Double? { ceilingRates.isEmpty ? nil : peak / ceiling }
    /// The largest VmHWM among the scenario's processes.
    var peakMemoryKiB: Int? { memory.map(\.peakKiB).max() }
}
