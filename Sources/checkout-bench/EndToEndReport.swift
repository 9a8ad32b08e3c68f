import Foundation

/// The end-to-end figures as Markdown for BENCHMARKS.md: the table, PostgreSQL's CPU and the fleet
/// ceiling it sets, then each target of issue 8 met or missed.
struct EndToEndReport {
    var results: [ScenarioResult]
    var leftOut: [String]
    /// This machine's cores: one size of PostgreSQL server the fleet ceiling is given for.
    var cores: Int

    /// The other size: a large server of its own, as production would give PostgreSQL.
    static let largeServerCores = 16

    /// The issue's targets, read from this machine's 2 cores and a broker on the same host.
    static let inMemoryRatioTarget = 0.8
    static let sqliteRatioTarget = 0.5
    static let p99TargetMilliseconds = 10.0
    static let memoryTargetMiB = 50.0

    var markdown: String {
        var lines = [
            "| scenario | processes | peak (cmd/s, median) | C loop in the same rounds (msg/s, median) | ratio "
                + "| database round trips per command (median) | pgbench, one statement (TPS, median) | ratio to pgbench "
                + "| latency rate (cmd/s) | p50 (ms) | p99 (ms) | p99.9 (ms) | worker VmHWM (MiB) |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for result in results {
            lines.append(row([
                result.scenario.map { "\($0.command.title), \($0.store.title)" } ?? "C loop (ceiling)",
                result.scenario.map { String($0.processes) } ?? "–",
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
        let measuredCPU = results.filter { $0.postgresCPU != nil }
        if !measuredCPU.isEmpty {
            let sizes = Set([cores, Self.largeServerCores]).sorted()
            lines += [
                "",
                "| scenario | processes | PostgreSQL CPU per command (µs, median) | per pgbench transaction (µs, median) | "
                    + sizes.map { "fleet ceiling, PostgreSQL on \($0) cores (cmd/s)" }.joined(separator: " | ") + " |",
                "|---|---:|---:|---:|" + String(repeating: "---:|", count: sizes.count),
            ]
            for result in measuredCPU {
                lines.append(row([
                    "\(result.scenario!.command.title), \(result.scenario!.store.title)",
                    String(result.scenario!.processes),
                    Self.format(result.postgresCPU, "%.0f"),
                    Self.format(result.postgresCPUPerPgbench, "%.0f"),
                ] + sizes.map { Self.format(result.fleetCeiling(cores: $0), "%.0f") }))
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
        for (store, target) in [(StoreKind.memory, Self.inMemoryRatioTarget), (.sqlite, Self.sqliteRatioTarget)] {
            let label = "SyncCart, \(store.title), 1 process ≥ \(target)× the C loop"
            if let ratio = result(.syncCart, store, processes: 1)?.ratio {
                lines.append(verdict(ratio >= target, label, String(format: "%.2f×", ratio)))
            } else {
                lines.append("- not measured: \(label)")
            }
        }
        for result in results where result.scenario != nil {
            lines.append(verdict(
                result.latencies.p99 < Self.p99TargetMilliseconds,
                "\(result.scenario!): p99 < \(Int(Self.p99TargetMilliseconds)) ms at half the peak rate",
                "\(LatencySummary.milliseconds(result.latencies.p99)) ms"
            ))
        }
        if let largest = results.compactMap(\.peakMemoryKiB).max() {
            let mebibytes = Double(largest) / 1024
            lines.append(verdict(mebibytes < Self.memoryTargetMiB, "worker resident memory < \(Int(Self.memoryTargetMiB)) MB (largest VmHWM)", String(format: "%.1f MiB", mebibytes)))
        }
        return lines
    }

    private func result(_ command: BenchCommand, _ store: StoreKind, processes: Int) -> ScenarioResult? {
        results.first { $0.scenario?.command == command && $0.scenario?.store == store && $0.scenario?.processes == processes }
    }

    private func verdict(_ met: Bool, _ target: String, _ figure: String) -> String {
        "- \(met ? "met" : "**missed**"): \(target): \(figure)"
    }

    private func row(_ cells: [String]) -> String {
        "| " + cells.joined(separator: " | ") + " |"
    }

    private static func format(_ value: Double?, _ format: String) -> String {
        value.map { String(format: format, $0) } ?? "–"
    }
}
