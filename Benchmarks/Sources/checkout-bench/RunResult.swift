import Histogram

/// What one run measured: end-to-end throughput and the latency of every command.
struct RunResult: Sendable {
    var commands: Int
    /// From the first publish to the last answer.
    var seconds: Double
    var latencies: Histogram<UInt64>

    var commandsPerSecond: Double { Double(commands) / seconds }
}
