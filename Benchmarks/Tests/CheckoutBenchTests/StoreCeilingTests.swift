import Testing

@testable import checkout_bench

/// What the benchmark reads from others to show a store's ceiling: the workers' counters, pgbench's
/// rate and PostgreSQL's CPU time.
@Suite struct StoreCeilingTests {
    @Test func readsACounterFromTheWorkersMetricsSummingItsLabelSets() {
        let text = """
            # HELP checkout_database_round_trips_total Statements sent to the database.
            # TYPE checkout_database_round_trips_total counter
            checkout_database_round_trips_total 12345
            checkout_database_round_trips_total_other 7
            checkout_broker_publishes_total{queue="a b"} 2
            checkout_broker_publishes_total{queue="c"} 3.5
            """

        #expect(PrometheusText.value(of: "checkout_database_round_trips_total", in: text) == 12_345)
        #expect(PrometheusText.value(of: "checkout_broker_publishes_total", in: text) == 5.5)
        #expect(PrometheusText.value(of: "checkout_broker_deliveries_total", in: text) == nil)
    }

    @Test func readsPgbenchsRateWithoutItsConnectionTime() {
        let output = """
            number of transactions actually processed: 5000/5000
            latency average = 1.602 ms
            initial connection time = 21.412 ms
            tps = 4993.531771 (without initial connection time)
            """

        #expect(PgBench.rate(in: output) == 4_993.531771)
        #expect(PgBench.rate(in: "pgbench: error: connection to server failed") == nil)
    }

    @Test func readsTheParentAndTheCPUTimeOfAProcessWhateverItsName() {
        let stat = "4242 (postgres: x (y) z) S 15520 15520 15520 0 -1 4194560 300 0 0 0 123 77 40 10 20 0 1 0 1117290 227258368 2000"

        #expect(
            ProcessStat.parse(stat: stat, ticksPerSecond: 100)
                == ProcessStat(parentPID: 15_520, cpuNanoseconds: 2_000_000_000))
        #expect(ProcessStat.parse(stat: "4242 (postgres) S 1 1 1 0 -1 0 0 0 0 0 1", ticksPerSecond: 100) == nil)
    }

    @Test func talliesProcessesThatStartEndOrHandTheirIdOnBetweenReadings() {
        var tally = ProcessCPUTally()
        tally.observe([1: 1_000, 2: 5_000])
        #expect(tally.nanoseconds == 0)

        // 1 runs on, 2 ends after this reading, 3 starts.
        tally.observe([1: 1_400, 2: 5_300, 3: 200])
        #expect(tally.nanoseconds == 400 + 300 + 200)

        // 2 is gone and keeps its last reading; 3's id goes to a new process that has used 50.
        tally.observe([1: 1_500, 3: 50])
        #expect(tally.nanoseconds == 500 + 300 + 200 + 50)
    }
}
