import Foundation
import Synchronization
import Testing

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
    /// returns once the new one serves HTTP.
    func killAndReplace(_ index: Int) async throws {
        let victim = running.withLock { $0[index] }
        victim.kill()
        let status = try await victim.waitForExit(timeout: .seconds(10))
        #expect(status == 137, "a SIGKILLed worker exits 137")
        killed.withLock { $0.append(victim) }
        let replacement = try WorkerProcess(["run"], environment: environment)
        running.withLock { $0[index] = replacement }
        _ = try await replacement.httpPort(timeout: .seconds(60))
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

    /// Writes every worker's log, killed ones included, to `worker-N.log` files in `directory`.
    func saveLogs(in directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (index, worker) in (killed.withLock { $0 } + running.withLock { $0 }).enumerated() {
            try Data(worker.standardError.utf8).write(to: directory.appendingPathComponent("worker-\(index).log"))
        }
    }
}
