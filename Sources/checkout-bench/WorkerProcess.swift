import Foundation

/// One `checkout-worker run` process of a scenario, configured only through its `CHECKOUT_*`
/// environment as an operator would, with its log in a file.
final class WorkerProcess: Sendable {
    let logPath: String
    private let process: Process

    var pid: Int32 { process.processIdentifier }

    private init(process: Process, logPath: String) {
        self.process = process
        self.logPath = logPath
    }

    /// Starts the process; `settings` are added to (and win over) this process's environment.
    static func start(executable: String, settings: [String: String], logPath: String) throws -> WorkerProcess {
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["run"]
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("CHECKOUT_") }.merging(settings) { $1 }
        process.standardOutput = log
        process.standardError = log
        do {
            try process.run()
        } catch {
            throw BenchmarkError(message: "cannot start \(executable): \(error)")
        }
        try? log.close()
        return WorkerProcess(process: process, logPath: logPath)
    }

    /// Throws, with the end of its log, if it has exited.
    func checkRunning() throws {
        guard process.isRunning else {
            throw BenchmarkError(message: "checkout-worker (pid \(pid)) exited with \(process.terminationStatus): \(logTail)")
        }
    }

    func memory() throws -> ProcessMemory {
        try ProcessMemory.of(pid: pid)
    }

    /// SIGTERM, as an orchestrator stops it; SIGKILL if it has not exited after `timeout`.
    /// Returns its exit status.
    @discardableResult
    func stop(timeout: Duration = .seconds(40)) async -> Int32 {
        // Waited for apart from the caller's task: a benchmark that is being cancelled must still see its workers out.
        await Task.detached { await self.terminate(timeout: timeout) }.value
    }

    private func terminate(timeout: Duration) async -> Int32 {
        guard process.isRunning else { return process.terminationStatus }
        process.terminate()
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            if ContinuousClock.now > deadline {
                log("checkout-worker (pid \(pid)) did not stop within \(timeout) after SIGTERM; killing it")
                kill(pid, SIGKILL)
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return process.terminationStatus
    }

    private var logText: String {
        (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
    }

    /// The end of its log, for an error message.
    var logTail: String {
        String(logText.suffix(1_500))
    }
}
