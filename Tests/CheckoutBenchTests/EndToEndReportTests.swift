@testable import checkout_bench
import Histogram
import Testing

/// The pure parts of the end-to-end benchmark: what it reports and how it judges the targets.
@Suite struct EndToEndReportTests {
    @Test func judgesEachTargetOfTheIssueFromTheFiguresItShows() {
        let report = EndToEndReport(results: [
            Self.result(nil, peak: 10_000, p99: 1.5),
            Self.result(Scenario(command: .syncCart, store: .memory, processes: 1), peak: 8_500, ceiling: 10_000, p99: 4, memoryKiB: 40 * 1024),
            Self.result(Scenario(command: .syncCart, store: .sqlite, processes: 1), peak: 4_000, ceiling: 10_000, p99: 12.5, memoryKiB: 60 * 1024),
        ], leftOut: [])

        #expect(report.targets == [
            "- met: SyncCart, in-memory, 1 process ≥ 0.8× the C loop: 0.85×",
            "- **missed**: SyncCart, SQLite, 1 process ≥ 0.5× the C loop: 0.40×",
            "- met: SyncCart, in-memory, 1 process: p99 < 10 ms at half the peak rate: 4.00 ms",
            "- **missed**: SyncCart, SQLite, 1 process: p99 < 10 ms at half the peak rate: 12.5 ms",
            "- **missed**: worker resident memory < 50 MB (largest VmHWM): 60.0 MiB",
        ])
    }

    @Test func printsOneTableRowPerScenarioWithTheCeilingFirst() {
        let report = EndToEndReport(results: [
            Self.result(nil, peak: 12_000, p99: 0.8),
            Self.result(Scenario(command: .placeOrder, store: .postgres, processes: 2), peak: 900, ceiling: 11_000, p99: 150, memoryKiB: 30_000),
        ], leftOut: ["SyncCart, SQLite, 2 processes: SQLite is for a single process"])

        let lines = report.markdown.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[2] == "| C loop (ceiling) | – | 12000 | – | – | 6000 | 0.40 | 0.80 | 0.80 | – |")
        #expect(lines[3] == "| PlaceOrder, PostgreSQL | 2 | 900 | 11000 | 0.08 | 450 | 75.0 | 150 | 150 | 29.3 |")
        #expect(lines.contains("Left out: SyncCart, SQLite, 2 processes: SQLite is for a single process."))
        #expect(lines.contains("- not measured: SyncCart, in-memory, 1 process ≥ 0.8× the C loop"))
    }

    @Test func leavesOutTheCombinationsTheWorkerDoesNotSupportAndSaysWhy() {
        let plan = Scenario.plan(commands: BenchCommand.allCases, stores: StoreKind.allCases, processes: [1, 2])

        #expect(plan.scenarios.map(\.description) == [
            "SyncCart, in-memory, 1 process", "SyncCart, in-memory, 2 processes", "SyncCart, SQLite, 1 process",
            "SyncCart, PostgreSQL, 1 process", "SyncCart, PostgreSQL, 2 processes",
            "PlaceOrder, in-memory, 1 process", "PlaceOrder, SQLite, 1 process",
            "PlaceOrder, PostgreSQL, 1 process", "PlaceOrder, PostgreSQL, 2 processes",
        ])
        #expect(plan.leftOut.count == 3)
        #expect(plan.leftOut.allSatisfy { $0.contains("SQLite is for a single process") || $0.contains("memory:// is per process") })
    }

    @Test func readsPeakAndCurrentResidentMemoryFromProcStatus() {
        let status = "Name:\tcheckout-worker\nVmPeak:\t  812345 kB\nVmHWM:\t   41236 kB\nVmRSS:\t   39872 kB\nThreads:\t7\n"

        #expect(ProcessMemory.parse(status: status) == ProcessMemory(peakKiB: 41_236, currentKiB: 39_872))
        #expect(ProcessMemory.parse(status: "Name:\tx\n") == nil)
    }

    @Test func countsEachAnswerOfItsRunOnceAndNamesTheUnexpectedOnes() {
        var ledger = RunLedger(idPrefix: "3-f1-", count: 3, expectedType: "cart.synced")
        for index in 0..<3 { ledger.published(index, at: 1_000_000) }

        ledger.answer(correlationID: "3-f1-0", type: "cart.synced", body: [], at: 3_000_000)
        ledger.answer(correlationID: "3-f1-0", type: "cart.synced", body: [], at: 9_000_000)
        ledger.answer(correlationID: "2-f1-1", type: "cart.synced", body: [], at: 3_000_000)
        ledger.answer(correlationID: "3-f1-7", type: "cart.synced", body: [], at: 3_000_000)
        ledger.answer(correlationID: "3-f1-2", type: "cart.sync-rejected", body: Array(#"{"reason":"version-conflict"}"#.utf8), at: 5_000_000)

        #expect(ledger.answered == 2)
        #expect(ledger.latencies.totalCount == 2)
        #expect(ledger.latencies.max >= 3_999 && ledger.latencies.max <= 4_001)
        #expect(ledger.lastAnsweredAt == 5_000_000)
        #expect(ledger.unexpected == ["cart.sync-rejected (version-conflict)": 1])
    }

    @Test func roundsMillisecondsToTheDigitsThatMean() {
        #expect(LatencySummary.milliseconds(0.4567) == "0.46")
        #expect(LatencySummary.milliseconds(12.34) == "12.3")
        #expect(LatencySummary.milliseconds(250.6) == "251")
    }

    private static func result(_ scenario: Scenario?, peak: Double, ceiling: Double? = nil, p99: Double, memoryKiB: Int? = nil) -> ScenarioResult {
        ScenarioResult(
            scenario: scenario,
            peakRates: [peak],
            ceilingRates: ceiling.map { [$0] } ?? [],
            latencyRate: peak / 2,
            latencies: LatencySummary(p50: p99 / 2, p99: p99, p999: p99, count: 1_000),
            memory: memoryKiB.map { [ProcessMemory(peakKiB: $0, currentKiB: $0)] } ?? []
        )
    }
}
