import Histogram
import Testing

@testable import checkout_bench

/// The pure parts of the end-to-end benchmark: what it reports and how it judges the targets.
@Suite struct EndToEndReportTests {
    @Test func judgesEachTargetOfTheIssueFromTheFiguresItShows() {
        let report = EndToEndReport(
            results: [
                Self.result(nil, peak: 10_000, p99: 1.5),
                Self.result(
                    Scenario(command: .syncCart, store: .memory, processes: 1), peak: 8_500, ceiling: 10_000, p99: 40, memoryKiB: 70 * 1024),
                Self.result(
                    Scenario(command: .syncCart, store: .sqlite, processes: 1), peak: 4_000, ceiling: 10_000, p99: 25, memoryKiB: 60 * 1024),
                Self.result(
                    Scenario(command: .placeOrder, store: .sqlite, processes: 1), peak: 3_600, ceiling: 10_000, p99: 30,
                    memoryKiB: 64 * 1024),
                Self.result(
                    Scenario(command: .syncCart, store: .postgres, processes: 1), peak: 2_000, ceiling: 10_000, p99: 12.5,
                    memoryKiB: 50 * 1024,
                    pgbench: 5_000),
                Self.result(
                    Scenario(command: .placeOrder, store: .postgres, processes: 1), peak: 1_400, ceiling: 10_000, p99: 8,
                    memoryKiB: 50 * 1024,
                    pgbench: 4_000),
            ], leftOut: [], cores: 2)

        #expect(
            report.targets == [
                "- **missed**: SyncCart, SQLite, 1 process ≥ 0.5× the C loop: 0.40×",
                "- met: PlaceOrder, SQLite, 1 process ≥ 0.35× the C loop: 0.36×",
                "- met: SyncCart, in-memory, 1 process ≥ 0.8× the C loop: 0.85×",
                "- **missed**: SyncCart, PostgreSQL, 1 process ≥ 0.5× pgbench's one-statement rate: 0.40×",
                "- met: PlaceOrder, PostgreSQL, 1 process ≥ 0.3× pgbench's one-statement rate: 0.35×",
                "- met: SyncCart, SQLite, 1 process: p99 ≤ 25 ms at half the peak rate: 25.0 ms",
                "- **missed**: PlaceOrder, SQLite, 1 process: p99 ≤ 25 ms at half the peak rate: 30.0 ms",
                "- met: SyncCart, PostgreSQL, 1 process: p99 ≤ 25 ms at half the peak rate: 12.5 ms",
                "- met: PlaceOrder, PostgreSQL, 1 process: p99 ≤ 25 ms at half the peak rate: 8.00 ms",
                "- **missed**: SyncCart, in-memory, 1 process: worker peak RSS (VmHWM) ≤ 64 MiB: 70.0 MiB",
                "- met: SyncCart, SQLite, 1 process: worker peak RSS (VmHWM) ≤ 64 MiB: 60.0 MiB",
                "- met: PlaceOrder, SQLite, 1 process: worker peak RSS (VmHWM) ≤ 64 MiB: 64.0 MiB",
                "- met: SyncCart, PostgreSQL, 1 process: worker peak RSS (VmHWM) ≤ 64 MiB: 50.0 MiB",
                "- met: PlaceOrder, PostgreSQL, 1 process: worker peak RSS (VmHWM) ≤ 64 MiB: 50.0 MiB",
            ])
    }

    @Test func saysWhichTargetsItHadNoScenarioFor() {
        let report = EndToEndReport(
            results: [
                Self.result(nil, peak: 10_000, p99: 1.5),
                Self.result(
                    Scenario(command: .syncCart, store: .postgres, processes: 2), peak: 2_000, ceiling: 10_000, p99: 12.5, pgbench: 5_000),
            ], leftOut: [], cores: 2)

        #expect(
            report.targets.prefix(5) == [
                "- not measured: SyncCart, SQLite, 1 process ≥ 0.5× the C loop",
                "- not measured: PlaceOrder, SQLite, 1 process ≥ 0.35× the C loop",
                "- not measured: SyncCart, in-memory, 1 process ≥ 0.8× the C loop",
                "- not measured: SyncCart, PostgreSQL, 1 process ≥ 0.5× pgbench's one-statement rate",
                "- not measured: PlaceOrder, PostgreSQL, 1 process ≥ 0.3× pgbench's one-statement rate",
            ])
    }

    @Test func printsOneTableRowPerScenarioWithTheCeilingFirst() {
        let report = EndToEndReport(
            results: [
                Self.result(nil, peak: 12_000, p99: 0.8),
                Self.result(
                    Scenario(command: .syncCart, store: .memory, processes: 1), peak: 9_000, ceiling: 12_000, p99: 5, memoryKiB: 40_000),
                Self.result(
                    Scenario(command: .placeOrder, store: .postgres, processes: 2), peak: 900, ceiling: 11_000, p99: 150, memoryKiB: 30_000,
                    roundTrips: [7.5, 7.25, 7.0], pgbench: 3_000),
            ], leftOut: ["SyncCart, SQLite, 2 processes: SQLite is for a single process"], cores: 2)

        let lines = report.markdown.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(
            lines[0].hasPrefix(
                "| scenario | processes | peak (cmd/s, median) | C loop in the same rounds (msg/s, median) | ratio | database round trips"))
        #expect(lines[2] == "| C loop (ceiling) | – | 12000 | – | – | – | – | – | 6000 | 0.40 | 0.80 | 0.80 | – |")
        #expect(lines[3] == "| SyncCart, in-memory | 1 | 9000 | 12000 | 0.75 | – | – | – | 4500 | 2.50 | 5.00 | 5.00 | 39.1 |")
        #expect(lines[4] == "| PlaceOrder, PostgreSQL | 2 | 900 | 11000 | 0.08 | 7.25 | 3000 | 0.30 | 450 | 75.0 | 150 | 150 | 29.3 |")
        #expect(lines.contains("Left out: SyncCart, SQLite, 2 processes: SQLite is for a single process."))
        #expect(!lines.contains { $0.contains("PostgreSQL CPU per command") })
    }

    @Test func showsTheWorkersAndTheBrokersCPUPerCommandWithTheCLoopsPerMessage() {
        let report = EndToEndReport(
            results: [
                Self.result(nil, peak: 12_000, p99: 0.8, brokerCPU: [130, 118, 140]),
                Self.result(
                    Scenario(command: .syncCart, store: .sqlite, processes: 1), peak: 5_000, ceiling: 10_000, p99: 20,
                    workerCPU: [120, 110, 125], brokerCPU: [150, 160, 148]),
                Self.result(
                    Scenario(command: .placeOrder, store: .sqlite, processes: 1), peak: 3_000, ceiling: 10_000, p99: 20, workerCPU: [210]),
            ], leftOut: [], cores: 2)

        let lines = report.markdown.split(separator: "\n", omittingEmptySubsequences: false)
        let header = lines.firstIndex { $0.contains("worker CPU per command") }
        #expect(
            header.map { String(lines[$0]) }
                == "| scenario | processes | worker CPU per command (µs, median) | RabbitMQ CPU per command (µs, median) |")
        #expect(header.map { String(lines[$0 + 2]) } == "| C loop (ceiling), per message | – | – | 130 |")
        #expect(header.map { String(lines[$0 + 3]) } == "| SyncCart, SQLite | 1 | 120 | 150 |")
        #expect(header.map { String(lines[$0 + 4]) } == "| PlaceOrder, SQLite | 1 | 210 | – |")
        let unmeasured = EndToEndReport(results: [Self.result(nil, peak: 12_000, p99: 0.8)], leftOut: [], cores: 2)
        #expect(!unmeasured.markdown.contains("worker CPU per command"))
    }

    @Test func tellsTheWorkersTimePerCommandFromTheWaitForTheEventsConfirm() {
        var timings = WorkerTimings()
        timings.processingSeconds = 8.0
        timings.commands = 1_000
        timings.confirmSeconds = 3.0
        timings.confirms = 1_000
        var timed = Self.result(Scenario(command: .syncCart, store: .postgres, processes: 1), peak: 2_000, ceiling: 8_000, p99: 20)
        timed.latencyTimings = timings
        let report = EndToEndReport(results: [Self.result(nil, peak: 12_000, p99: 0.8), timed], leftOut: [], cores: 2)

        let lines = report.markdown.split(separator: "\n", omittingEmptySubsequences: false)
        let header = lines.firstIndex { $0.contains("delivery to ack") }
        #expect(
            header.map { String(lines[$0]) }
                == "| scenario | processes | latency rate (cmd/s) | worker, delivery to ack (ms, mean) | of it, the event's confirm (ms, mean) |"
        )
        #expect(header.map { String(lines[$0 + 2]) } == "| SyncCart, PostgreSQL | 1 | 1000 | 8.00 | 3.00 |")
        #expect(header.map { lines.count > $0 + 3 && lines[$0 + 3].hasPrefix("| C loop") } == false)
        let untimed = EndToEndReport(results: [Self.result(nil, peak: 12_000, p99: 0.8)], leftOut: [], cores: 2)
        #expect(!untimed.markdown.contains("delivery to ack"))
    }

    @Test func turnsPostgreSQLsCPUPerCommandIntoTheFleetCeilingForThisMachineAndALargeServer() {
        let report = EndToEndReport(
            results: [
                Self.result(nil, peak: 12_000, p99: 0.8),
                Self.result(
                    Scenario(command: .syncCart, store: .postgres, processes: 1), peak: 900, ceiling: 11_000, p99: 20,
                    pgbench: 3_000, postgresCPU: [400, 500, 450], pgbenchPostgresCPU: [160]),
            ], leftOut: [], cores: 2)

        let lines = report.markdown.split(separator: "\n", omittingEmptySubsequences: false)
        let header = lines.firstIndex { $0.contains("PostgreSQL CPU per command") }
        #expect(
            header.map { String(lines[$0]) }
                == "| scenario | processes | PostgreSQL CPU per command (µs, median) | per pgbench transaction (µs, median) "
                + "| fleet ceiling, PostgreSQL on 2 cores (cmd/s) | fleet ceiling, PostgreSQL on 16 cores (cmd/s) |")
        #expect(header.map { String(lines[$0 + 2]) } == "| SyncCart, PostgreSQL | 1 | 450 | 160 | 4444 | 35556 |")
        #expect(EndToEndReport(results: [], leftOut: [], cores: 16).markdown.contains("fleet ceiling") == false)
    }

    @Test func leavesOutTheCombinationsTheWorkerDoesNotSupportAndSaysWhy() {
        let plan = Scenario.plan(commands: BenchCommand.allCases, stores: StoreKind.allCases, processes: [1, 2])

        #expect(
            plan.scenarios.map(\.description) == [
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
        ledger.answer(
            correlationID: "3-f1-2", type: "cart.sync-rejected", body: Array(#"{"reason":"version-conflict"}"#.utf8), at: 5_000_000)

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

    private static func result(
        _ scenario: Scenario?,
        peak: Double,
        ceiling: Double? = nil,
        p99: Double,
        memoryKiB: Int? = nil,
        roundTrips: [Double] = [],
        pgbench: Double? = nil,
        postgresCPU: [Double] = [],
        pgbenchPostgresCPU: [Double] = [],
        workerCPU: [Double] = [],
        brokerCPU: [Double] = []
    ) -> ScenarioResult {
        ScenarioResult(
            scenario: scenario,
            peakRates: [peak],
            ceilingRates: ceiling.map { [$0] } ?? [],
            latencyRate: peak / 2,
            latencies: LatencySummary(p50: p99 / 2, p99: p99, p999: p99, count: 1_000),
            memory: memoryKiB.map { [ProcessMemory(peakKiB: $0, currentKiB: $0)] } ?? [],
            roundTripsPerCommand: roundTrips,
            pgbenchRates: pgbench.map { [$0] } ?? [],
            postgresCPUPerCommand: postgresCPU,
            postgresCPUPerPgbenchTransaction: pgbenchPostgresCPU,
            workerCPUPerCommand: workerCPU,
            brokerCPUPerCommand: brokerCPU
        )
    }
}
