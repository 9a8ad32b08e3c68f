import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One `checkout-worker run` process of a scenario, configured only through its `CHECKOUT_*`
/// environment as an operator would, with its log in a file.
final class WorkerProcess: Sendable {
    /// The counter of the statements a worker sends its database.
    static let roundTripsMetric = "checkout_database_round_trips_total"

    let logPath: String
    /// `CHECKOUT_HTTP_PORT`, where it serves `/metrics`.
    let httpPort: Int
    private let process: Process

    var pid: Int32 { process.processIdentifier }

    private init(process: Process, logPath: String, httpPort: Int) {
        self.process = process
        self.logPath = logPath
        self.httpPort = httpPort
    }

    /// Starts the process; `settings` are added to (and win over) this process's environment, and
    /// `httpPort` is its `CHECKOUT_HTTP_PORT`.
    static func start(executable: String, settings: [String: String], httpPort: Int, logPath: String) throws -> WorkerProcess {
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["run"]
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("CHECKOUT_") }.merging(settings) { $1 }
            .merging(["CHECKOUT_HTTP_PORT": "\(httpPort)"]) { $1 }
        process.standardOutput = log
        process.standardError = log
        do {
            try process.run()
        } catch {
            throw BenchmarkError(message: "cannot start \(executable): \(error)")
        }
        try? log.close()
        return WorkerProcess(process: process, logPath: logPath, httpPort: httpPort)
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

    /// The statements it has sent its database, as its `/metrics` shows them: sampled every two
    /// seconds, so a read counts what it sent until two seconds before.
    func roundTrips() async throws -> Int {
        let (text, url) = try await metrics()
        guard let value = PrometheusText.value(of: Self.roundTripsMetric, in: text) else {
            throw BenchmarkError(message: "checkout-worker (pid \(pid)) exports no \(Self.roundTripsMetric) on \(url)")
        }
        return Int(value)
    }

    /// Its time per command so far, from its `/metrics` timers.
    func timings() async throws -> WorkerTimings {
        WorkerTimings(metrics: try await metrics().text)
    }

    /// Its `/metrics` text, and where it was read.
    private func metrics() async throws -> (text: String, url: URL) {
        let url = URL(string: "http://127.0.0.1:\(httpPort)/metrics")!
        let (data, response): (Data, URLResponse)
        do {
            (data, response) = try await URLSession.shared.data(from: url)
        } catch {
            throw BenchmarkError(message: "checkout-worker (pid \(pid)): cannot read \(url): \(error)")
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200 else { throw BenchmarkError(message: "checkout-worker (pid \(pid)): GET \(url) answered \(status)") }
        return (String(decoding: data, as: UTF8.self), url)
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
