import Foundation

/// The end-to-end figures as Markdown for BENCHMARKS.md: the table, then each target of issue 8 met or missed.
struct EndToEndReport {
    var results: [ScenarioResult]
    var leftOut: [String]

    /// The issue's targets, read from this machine's 2 cores and a broker on the same host.
    static let inMemoryRatioTarget = 0.8
    static let sqliteRatioTarget = 0.5
    static let p99TargetMilliseconds = 10.0
    static let memoryTargetMiB = 50.0

    var markdown: String {
        var lines = [
            "| scenario | processes | peak (cmd/s, median) | C loop in the same rounds (msg/s, median) | ratio | latency rate (cmd/s) | p50 (ms) | p99 (ms) | p99.9 (ms) | worker VmHWM (MiB) |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for result in results {
            let name = result.scenario.map { "\($0.command.title), \($0.store.title)" } ?? "C loop (ceiling)"
            lines.append([
                name,
                result.scenario.map { String($0.processes) } ?? "–",
                String(format: "%.0f", result.peak),
                result.ratio == nil ? "–" : String(format: "%.0f", result.ceiling),
                result.ratio.map { String(format: "%.2f", $0) } ?? "–",
                String(format: "%.0f", result.latencyRate),
                LatencySummary.milliseconds(result.latencies.p50),
                LatencySummary.milliseconds(result.latencies.p99),
                LatencySummary.milliseconds(result.latencies.p999),
                result.peakMemoryKiB.map { String(format: "%.1f", Double($0) / 1024) } ?? "–",
            ].joined(separator: " | ").surrounded)
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
}

private extension String {
    var surrounded: String { "| \(self) |" }
}
