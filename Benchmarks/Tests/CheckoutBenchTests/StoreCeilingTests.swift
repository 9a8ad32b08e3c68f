import Foundation
import Synchronization
import Testing

@testable import checkout_bench

#if canImport(Glibc)
import Glibc
#endif

/// What the benchmark reads from others to show a store's ceiling: the workers' counters, pgbench's
/// rate, and the CPU time of PostgreSQL, the workers and the broker.
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

    @Test func findsTheSocketListeningOnAPortInProcNetTCP() {
        // Port 21672 is 54A8; state 0A is LISTEN, 01 an established connection.
        let table = """
              sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
               0: 0100007F:54A8 0100007F:C350 01 00000000:00000000 00:00000000 00000000     0        0 11111 1 0000000000000000 20 4 30 10 -1
               1: 0100007F:2A67 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 22222 1 0000000000000000 100 0 0 10 0
               2: 0100007F:54A8 00000000:0000 0A 00000000:00000000 00:00000000 00000000   108        0 33333 1 0000000000000000 100 0 0 10 0
            """

        #expect(ListeningProcess.listeningInode(port: 21_672, in: table) == 33_333)
        #expect(ListeningProcess.listeningInode(port: 10_855, in: table) == 22_222)
        #expect(ListeningProcess.listeningInode(port: 50_000, in: table) == nil)
    }

    @Test func findsThisProcessByTheSocketItListensOn() throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(socket >= 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && listen(socket, 1) == 0 }
        }
        try #require(bound)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }

        #expect(ListeningProcess.pid(port: Int(UInt16(bigEndian: address.sin_port))) == getpid())
    }

    @Test func readsTheCPUOfEveryThreadOfAProcess() throws {
        let spun = Mutex<UInt64>(0)
        let release = DispatchSemaphore(value: 0)
        let spinning = DispatchSemaphore(value: 0)
        let before = try #require(ThreadGroupCPU.readings(of: [getpid()])[getpid()])
        Thread.detachNewThread {
            // 50 ms of this thread's CPU, then it waits, alive, while the test reads.
            let start = Self.threadCPUNanoseconds()
            var used: UInt64 = 0
            while used < 50_000_000 { used = Self.threadCPUNanoseconds() - start }
            spun.withLock { $0 = used }
            spinning.signal()
            release.wait()
        }
        spinning.wait()
        defer { release.signal() }

        let used = ThreadGroupCPU.nanoseconds(of: [getpid()], before: [getpid(): before])
        #expect(used >= spun.withLock { $0 })
        #expect(ThreadGroupCPU.nanoseconds(of: [getpid()], before: [:]) == 0)
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

    private static func threadCPUNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}
