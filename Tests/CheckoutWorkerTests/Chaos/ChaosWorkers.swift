import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `checkout-worker` processes of a chaos run, all with one environment; any of them can be
/// killed with SIGKILL and replaced, as an orchestrator restarts a crashed container.
final class ChaosWorkers: Sendable {
    private let environment: [String: String]
    private let running: Mutex<[WorkerProcess]>
    /// Killed processes, kept for their logs.
    private let killed = Mutex<[WorkerProcess]>([])

    /// Starts `count` workers and waits until each serves HTTP (it migrated the database and connected to the broker).
    init(count: Int, environment: [String: String]) async throws {
        self.environment = environment
        var started: [WorkerProcess] = []
        for _ in 0..<count {
            let worker = try WorkerProcess(["run"], environment: environment)
            started.append(worker)
        }
        running = Mutex(started)
        for worker in started {
            _ = try await worker.httpPort(timeout: .seconds(60))
        }
    }

    /// SIGKILLs worker `index` in the middle of whatever it does and starts a new one in its place;
    /// returns once the new one serves HTTP, with what shows the victim is gone.
    func killAndReplace(_ index: Int) async throws -> String {
        let victim = running.withLock { $0[index] }
        let inFlight = try? await victim.get("/metrics").body
        victim.kill()
        let status = try await victim.waitForExit(timeout: .seconds(30))
        #expect(status == 137, "a SIGKILLed worker exits 137, pid \(victim.processIdentifier) exited \(status)")
        let gone = Self.isGone(victim.processIdentifier)
        #expect(gone, "the SIGKILLed worker (pid \(victim.processIdentifier)) is gone")
        killed.withLock { $0.append(victim) }
        let replacement = try WorkerProcess(["run"], environment: environment)
        running.withLock { $0[index] = replacement }
        _ = try await replacement.httpPort(timeout: .seconds(120))
        let received = inFlight.map { Self.sum("checkout_commands_received_total", in: $0) } ?? 0
        return
            "pid \(victim.processIdentifier) exited \(status), \(gone ? "gone" : "STILL THERE") (it had received \(received) commands); pid \(replacement.processIdentifier) took its place"
    }

    /// Each running worker's `checkout_broker_reconnects_total`, by pid, read from its `/metrics`.
    func reconnects() async throws -> [Int32: Int] {
        var counts: [Int32: Int] = [:]
        for worker in running.withLock({ $0 }) {
            counts[worker.processIdentifier] = Self.sum("checkout_broker_reconnects_total", in: try await worker.get("/metrics").body)
        }
        return counts
    }

    /// Waits (at most `timeout`) until every worker of `before` that still runs counted another
    /// reconnect; records an issue for each that did not. Returns the counts, before → after.
    func confirmReconnects(since before: [Int32: Int], within timeout: Duration = .seconds(90)) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        var after = try await reconnects()
        while before.contains(where: { pid, count in after[pid].map { $0 <= count } ?? false }), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(500))
            after = (try? await reconnects()) ?? after
        }
        let stale = before.filter { pid, count in after[pid].map { $0 <= count } ?? false }
        #expect(
            stale.isEmpty,
            "every worker counts a broker reconnect (checkout_broker_reconnects_total); these did not within \(timeout): \(stale), after \(after)"
        )
        #expect(
            before.keys.contains { after[$0] != nil },
            "a worker that was there before the fault still runs to count it: before \(before), after \(after)")
        return "reconnects "
            + before.keys.sorted().map { "pid \($0): \(before[$0]!) → \(after[$0].map { "\($0)" } ?? "gone")" }.joined(separator: ", ")
    }

    /// Whether, as the kernel sees it, `pid` runs no more: it names no process, or a zombie (one
    /// that has exited and is not reaped yet; `WorkerProcess` leaves the reaping to Foundation).
    private static func isGone(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else {
            #if canImport(Glibc)
            return Glibc.kill(pid, 0) == -1 && errno == ESRCH
            #else
            return Darwin.kill(pid, 0) == -1 && errno == ESRCH
            #endif
        }
        // The state follows the command name, which is in parentheses and may hold any character.
        guard let nameEnd = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(after: nameEnd)...].trimmingPrefix(" ").first == "Z"
    }

    /// The sum of a metric's samples (every label set) in the Prometheus text `metrics`; 0 when absent.
    static func sum(_ name: String, in metrics: String) -> Int {
        metrics.split(separator: "\n").reduce(0) { total, line in
            guard line.hasPrefix(name), let next = line.dropFirst(name.count).first, next == " " || next == "{",
                let value = line.split(separator: " ").last.flatMap({ Double($0) })
            else { return total }
            return total + Int(value)
        }
    }

    /// Sends SIGTERM to every worker and returns their exit statuses (0 for a graceful stop).
    func stop() async throws -> [Int32] {
        let workers = running.withLock { $0 }
        for worker in workers { worker.terminate() }
        var statuses: [Int32] = []
        for worker in workers {
            statuses.append(try await worker.waitForExit(timeout: .seconds(30)))
        }
        return statuses
    }

    /// Kills whatever still runs: for a test that failed half-way.
    func kill() {
        for worker in running.withLock({ $0 }) { worker.kill() }
    }

    /// Which of `commandIDs` a worker's log says it parked in a retry queue (to retry it, or to look
    /// again later at a command another worker held): commands the broker then held in that queue.
    func parkedInRetryQueues(_ commandIDs: Set<String>) -> Set<String> {
        let parking = ["retrying in", "looking again after the first retry delay"]
        var parked: Set<String> = []
        for worker in killed.withLock({ $0 }) + running.withLock({ $0 }) {
            for line in worker.standardError.split(separator: "\n") where parking.contains(where: { line.contains($0) }) {
                parked.formUnion(commandIDs.filter { line.contains($0) })
            }
        }
        return parked
    }

    /// Every worker's log lines that contain `text`, killed workers' first, each after its worker's pid:
    /// what a failed run prints about a lost command, since CI keeps its output but not its files.
    func logLines(containing text: String) -> [String] {
        (killed.withLock { $0 } + running.withLock { $0 }).flatMap { worker in
            worker.standardError.split(separator: "\n").filter { $0.contains(text) }.map { "pid \(worker.processIdentifier): \($0)" }
        }
    }

    /// Writes every worker's log, killed ones included, to `worker-N.log` files in `directory`.
    func saveLogs(in directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (index, worker) in (killed.withLock { $0 } + running.withLock { $0 }).enumerated() {
            try Data(worker.standardError.utf8).write(to: directory.appendingPathComponent("worker-\(index).log"))
        }
    }
}
