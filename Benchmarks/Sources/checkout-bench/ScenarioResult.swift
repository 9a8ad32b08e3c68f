/// What the benchmark measured for one row of its table.
struct ScenarioResult: Sendable {
    /// `nil` for the C loop itself.
    var scenario: Scenario?
    /// Flat-out throughput of each round, commands per second.
    var peakRates: [Double]
    /// The C loop's flat-out throughput in the rounds run right before those, for the ratio.
    var ceilingRates: [Double]
    /// The rate of the latency rounds: half the median peak, unless `--latency-rate` set it.
    var latencyRate: Double
    /// Whether `--latency-rate` set ``latencyRate``: then two builds' latencies compare at one rate,
    /// and the p99 target, which is read at half the peak, is not judged.
    var isLatencyRateSet = false
    /// Every latency-round command, publish to answer.
    var latencies: LatencySummary
    /// Each worker process's resident memory at the end of the scenario.
    var memory: [ProcessMemory]
    /// Statements the workers sent their database per command in each flat-out round, from their
    /// counters; none on `memory://`, which has no database.
    var roundTripsPerCommand: [Double] = []
    /// pgbench's rate for the same unit of work as one statement, in rounds alternating with the
    /// worker's; PostgreSQL only.
    var pgbenchRates: [Double] = []
    /// PostgreSQL's CPU per command in each flat-out round, µs; only when the server runs on this host.
    var postgresCPUPerCommand: [Double] = []
    /// PostgreSQL's CPU per pgbench transaction in each pgbench round, µs.
    var postgresCPUPerPgbenchTransaction: [Double] = []
    /// The worker processes' CPU per command in each flat-out round, µs, all their threads.
    var workerCPUPerCommand: [Double] = []
    /// The broker's CPU per command (per message, for the C loop) in each flat-out round, µs; only when
    /// it runs on this host.
    var brokerCPUPerCommand: [Double] = []
    /// The workers' time per command over the latency rounds, from their timers; none for the C loop.
    var latencyTimings: WorkerTimings?

    var peak: Double { peakRates.median }
    var ceiling: Double { ceilingRates.median }
    var ratio: Double? { ceilingRates.isEmpty ? nil : peak / ceiling }
    /// The largest VmHWM among the scenario's processes.
    var peakMemoryKiB: Int? { memory.map(\.peakKiB).max() }
    var roundTrips: Double? { Self.median(roundTripsPerCommand) }
    var pgbench: Double? { Self.median(pgbenchRates) }
    /// The worker's peak against PostgreSQL's own for the same unit of work.
    var pgbenchRatio: Double? { pgbench.map { peak / $0 } }
    var postgresCPU: Double? { Self.median(postgresCPUPerCommand) }
    var postgresCPUPerPgbench: Double? { Self.median(postgresCPUPerPgbenchTransaction) }
    var workerCPU: Double? { Self.median(workerCPUPerCommand) }
    var brokerCPU: Double? { Self.median(brokerCPUPerCommand) }

    /// Commands per second that one PostgreSQL of `cores` cores serves at this CPU per command, all
    /// of it spent on them: the most any number of worker replicas can get from it.
    func fleetCeiling(cores: Int) -> Double? {
        postgresCPU.map { Double(cores) * 1_000_000 / $0 }
    }

    private static func median(_ values: [Double]) -> Double? {
        values.isEmpty ? nil : values.median
    }
}
