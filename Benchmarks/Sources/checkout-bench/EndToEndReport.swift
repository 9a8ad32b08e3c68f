import Foundation

/// The end-to-end figures as Markdown for BENCHMARKS.md: the table, the workers' and the broker's CPU,
/// PostgreSQL's CPU and the fleet ceiling it sets, then each target of issue 15 met or missed.
struct EndToEndReport {
    var results: [ScenarioResult]
    var leftOut: [String]
    /// This machine's cores: one size of PostgreSQL server the fleet ceiling is given for.
    var cores: Int

    /// The other size: a large server of its own, as production would give PostgreSQL.
    static let largeServerCores = 16

    /// Use case, store and the share of the C loop it must reach with one process.
    static let ceilingRatioTargets: [(BenchCommand, StoreKind, Double)] = [
        (.syncCart, .sqlite, 0.5), (.placeOrder, .sqlite, 0.35), (.syncCart, .memory, 0.8),
    ]
    /// Use case and the share of pgbench's one-statement rate it must reach on PostgreSQL with one process.
    static let pgbenchRatioTargets: [(BenchCommand, Double)] = [(.syncCart, 0.5), (.placeOrder, 0.3)]
    static let p99TargetMilliseconds = 25.0
    static let memoryTargetMiB = 64.0

    var markdown: String {
        var lines = [
            "| scenario | processes | peak (cmd/s, median) | C loop in the same rounds (msg/s, median) | ratio "
                + "| database round trips per command (median) | pgbench, one statement (TPS, median) | ratio to pgbench "
                + "| latency rate (cmd/s) | p50 (ms) | p99 (ms) | p99.9 (ms) | worker VmHWM (MiB) |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for result in results {
            lines.append(
                row(
                    Self.scenarioCells(result, ceiling: "C loop (ceiling)") + [
                        String(format: "%.0f", result.peak),
                        result.ratio == nil ? "–" : String(format: "%.0f", result.ceiling),
                        Self.format(result.ratio, "%.2f"),
                        Self.format(result.roundTrips, "%.2f"),
                        Self.format(result.pgbench, "%.0f"),
                        Self.format(result.pgbenchRatio, "%.2f"),
                        String(format: "%.0f", result.latencyRate),
                        LatencySummary.milliseconds(result.latencies.p50),
                        LatencySummary.milliseconds(result.latencies.p99),
                        LatencySummary.milliseconds(result.latencies.p999),
                        Self.format(result.peakMemoryKiB.map { Double($0) / 1024 }, "%.1f"),
                    ]))
        }
        if results.contains(where: { $0.workerCPU != nil || $0.brokerCPU != nil }) {
            lines += table(["worker CPU per command (µs, median)", "RabbitMQ CPU per command (µs, median)"], of: results) {
                Self.scenarioCells($0, ceiling: "C loop (ceiling), per message") + [
                    Self.format($0.workerCPU, "%.0f"), Self.format($0.brokerCPU, "%.0f"),
                ]
            }
        }
        let timed = results.filter { $0.latencyTimings?.processingMilliseconds != nil }
        if !timed.isEmpty {
            let columns = ["latency rate (cmd/s)", "worker, delivery to ack (ms, mean)", "of it, the event's confirm (ms, mean)"]
            lines += table(columns, of: timed) {
                Self.scenarioCells($0, ceiling: "C loop (ceiling)") + [
                    String(format: "%.0f", $0.latencyRate),
                    Self.format($0.latencyTimings?.processingMilliseconds, "%.2f"),
                    Self.format($0.latencyTimings?.confirmMilliseconds, "%.2f"),
                ]
            }
        }
        let measuredCPU = results.filter { $0.postgresCPU != nil }
        if !measuredCPU.isEmpty {
            let sizes = Set([cores, Self.largeServerCores]).sorted()
            let columns =
                ["PostgreSQL CPU per command (µs, median)", "per pgbench transaction (µs, median)"]
                + sizes.map { "fleet ceiling, PostgreSQL on \($0) cores (cmd/s)" }
            lines += table(columns, of: measuredCPU) { result in
                Self.scenarioCells(result, ceiling: "C loop (ceiling)") + [
                    Self.format(result.postgresCPU, "%.0f"), Self.format(result.postgresCPUPerPgbench, "%.0f"),
                ] + sizes.map { Self.format(result.fleetCeiling(cores: $0), "%.0f") }
            }
        }
        if !leftOut.isEmpty {
            lines.append("")
            lines += leftOut.map { "Left out: \($0)." }
        }
        lines.append("")
        lines += targets
        return lines.joined(separator: "\n")
    }

    /// One line per target with the figure it was judged on; a target with no scenario measured says so.
    var targets: [String] {
        var lines: [String] = []
        for (command, store, target) in Self.ceilingRatioTargets {
            let label = "\(command.title), \(store.title), 1 process ≥ \(target)× the C loop"
            lines.append(judge(label, result(command, store)?.ratio) { $0 >= target })
        }
        for (command, target) in Self.pgbenchRatioTargets {
            let label = "\(command.title), PostgreSQL, 1 process ≥ \(target)× pgbench's one-statement rate"
            lines.append(judge(label, result(command, .postgres)?.pgbenchRatio) { $0 >= target })
        }
        for result in results {
            guard let scenario = result.scenario, scenario.store != .memory, !result.isLatencyRateSet else { continue }
            lines.append(
                verdict(
                    result.latencies.p99 <= Self.p99TargetMilliseconds,
                    "\(scenario): p99 ≤ \(Int(Self.p99TargetMilliseconds)) ms at half the peak rate",
                    "\(LatencySummary.milliseconds(result.latencies.p99)) ms"
                ))
        }
        for result in results {
            guard let scenario = result.scenario, let kiB = result.peakMemoryKiB else { continue }
            let mebibytes = Double(kiB) / 1024
            lines.append(
                verdict(
                    mebibytes <= Self.memoryTargetMiB,
                    "\(scenario): worker peak RSS (VmHWM) ≤ \(Int(Self.memoryTargetMiB)) MiB",
                    String(format: "%.1f MiB", mebibytes)
                ))
        }
        return lines
    }

    private func result(_ command: BenchCommand, _ store: StoreKind) -> ScenarioResult? {
        results.first { $0.scenario?.command == command && $0.scenario?.store == store && $0.scenario?.processes == 1 }
    }

    private func judge(_ target: String, _ ratio: Double?, _ met: (Double) -> Bool) -> String {
        guard let ratio else { return "- not measured: \(target)" }
        return verdict(met(ratio), target, String(format: "%.2f×", ratio))
    }

    private func verdict(_ met: Bool, _ target: String, _ figure: String) -> String {
        "- \(met ? "met" : "**missed**"): \(target): \(figure)"
    }

    private func row(_ cells: [String]) -> String {
        "| " + cells.joined(separator: " | ") + " |"
    }

    /// A table after a blank line, one row per result: the scenario's cells, then `columns`, right-aligned.
    private func table(_ columns: [String], of results: [ScenarioResult], cells: (ScenarioResult) -> [String]) -> [String] {
        ["", row(["scenario", "processes"] + columns), "|---|" + String(repeating: "---:|", count: columns.count + 1)]
            + results.map { row(cells($0)) }
    }

    /// The first two cells of a row: the scenario and its processes, or `ceiling` for the C loop's row.
    private static func scenarioCells(_ result: ScenarioResult, ceiling: String) -> [String] {
        guard let scenario = result.scenario else { return [ceiling, "–"] }
        return ["\(scenario.command.title), \(scenario.store.title)", String(scenario.processes)]
    }

    private static func format(_ value: Double?, _ format: String) -> String {
        value.map { String(format: format, $0) } ?? "–"
    }
}
