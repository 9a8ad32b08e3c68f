import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The real `checkout-worker` executable, started as an OS process the way an orchestrator starts it.
///
/// Tests that need what only a process has (signals, exit statuses, a crash that loses all memory)
/// use it; the others call `buildWorker` in-process. Standard output and standard error go to files
/// of its own, so a chatty worker never blocks on a full pipe and a failing test can quote the
/// worker's log. A process still running when this object goes away is killed, so a failed test
/// leaves no worker behind consuming from the broker.
final class WorkerProcess: Sendable {
    /// Overrides where the executable is looked for (otherwise next to the test binary, in `.build/<triple>/debug`).
    static let executableVariable = "TEST_WORKER_EXECUTABLE"

    /// The process id, for `kill -STOP` and the like.
    let processIdentifier: Int32
    private let process: Process
    private let directory: URL
    private let port = Mutex<Int?>(nil)

    /// Starts `checkout-worker arguments…` in a scratch directory of its own (so a relative
    /// `sqlite://` path lands there), with the test process's environment minus every `CHECKOUT_*`
    /// variable, plus `environment`.
    ///
    /// With `standardErrorReaderGone`, standard error is a pipe whose reading end is closed before the
    /// process starts, as when a log collector has died: every write to it fails with `EPIPE`.
    /// ``standardError`` then stays empty.
    init(_ arguments: [String] = ["run"], environment: [String: String], standardErrorReaderGone: Bool = false) throws {
        let executable = try Self.executable()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("checkout-worker-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data().write(to: directory.appendingPathComponent("stdout.log"))
        try Data().write(to: directory.appendingPathComponent("stderr.log"))

        process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = ProcessInfo.processInfo.environment
            .filter { !$0.key.hasPrefix("CHECKOUT_") }
            .merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: directory.appendingPathComponent("stdout.log"))
        if standardErrorReaderGone {
            let pipe = Pipe()
            try pipe.fileHandleForReading.close()
            process.standardError = pipe
        } else {
            process.standardError = try FileHandle(forWritingTo: directory.appendingPathComponent("stderr.log"))
        }
        try process.run()
        processIdentifier = process.processIdentifier
    }

    deinit {
        if exitStatus() == nil { send(SIGKILL) }
        try? FileManager.default.removeItem(at: directory)
    }

    /// What the process printed on standard output so far.
    var standardOutput: String { read("stdout.log") }

    /// What the process wrote on standard error so far: its JSON log lines, or a start-up error.
    var standardError: String { read("stderr.log") }

    /// The lines of standard error that are JSON objects (the worker's structured logs).
    var logLines: [[String: Any]] {
        standardError.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
    }

    /// Waits until the worker logged a line with `message`, for at most `timeout`.
    func waitForLogLine(_ message: String, timeout: Duration = .seconds(30)) async throws {
        let deadline = ContinuousClock.now + timeout
        while !logLines.contains(where: { $0["message"] as? String == message }) {
            guard ContinuousClock.now < deadline else {
                throw WorkerProcessError(
                    code: .timedOut, context: "checkout-worker did not log '\(message)' within \(timeout)", log: standardError)
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// SIGTERM: what an orchestrator sends to stop the worker gracefully.
    func terminate() {
        send(SIGTERM)
    }

    /// SIGKILL: the process dies at once, in the middle of whatever it was doing.
    func kill() {
        send(SIGKILL)
    }

    /// Waits for the process to end and returns its exit status as a shell reports it: the code
    /// it exited with, or 128 + the signal's number when a signal ended it (137 after SIGKILL).
    func waitForExit(timeout: Duration) async throws -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let status = exitStatus() { return status }
            guard ContinuousClock.now < deadline else {
                throw WorkerProcessError(
                    code: .timedOut, context: "checkout-worker (pid \(processIdentifier)) still runs after \(timeout)", log: standardError)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The exit code once the process has exited (128 + the signal that killed it), peeked with
    /// `waitid(WNOWAIT)` so that Foundation still reaps it. `Process.isRunning` is not used: Foundation
    /// learns of an exit when a socket the child inherited closes, and a child spawned meanwhile by
    /// another test can inherit that socket too and hold it open (swift-corelibs-foundation#4795).
    private func exitStatus() -> Int32? {
        #if canImport(Glibc)
        var info = siginfo_t()
        if waitid(P_PID, id_t(processIdentifier), &info, WEXITED | WNOHANG | WNOWAIT) == 0 {
            guard info._sifields._sigchld.si_pid != 0 else { return nil }
            let status = info._sifields._sigchld.si_status
            return info.si_code == CLD_EXITED ? status : 128 + status
        }
        // Reaped already (ECHILD): Foundation has the status.
        #endif
        guard !process.isRunning else { return nil }
        return process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
    }

    /// The port of `/health/*` and `/metrics`, read from the line the worker logs once it listens
    /// (start it with `CHECKOUT_HTTP_PORT=0` to get a free port).
    func httpPort(timeout: Duration = .seconds(30)) async throws -> Int {
        if let port = port.withLock({ $0 }) { return port }
        let deadline = ContinuousClock.now + timeout
        while true {
            if let found = logLines.lazy.compactMap({ $0["http.port"] as? Int }).first {
                port.withLock { $0 = found }
                return found
            }
            guard exitStatus() == nil else {
                let status = try await waitForExit(timeout: .seconds(1))
                throw WorkerProcessError(
                    code: .exitedEarly, context: "checkout-worker exited with \(status) before it served HTTP", log: standardError)
            }
            guard ContinuousClock.now < deadline else {
                throw WorkerProcessError(
                    code: .timedOut, context: "checkout-worker logged no http.port within \(timeout)", log: standardError)
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// `GET path` on the worker's HTTP port; the status and the body.
    func get(_ path: String) async throws -> (status: Int, body: String) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(try await httpPort())\(path)")!)
        request.timeoutInterval = 10
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    private func send(_ signal: Int32) {
        #if canImport(Glibc)
        _ = Glibc.kill(processIdentifier, signal)
        #else
        _ = Darwin.kill(processIdentifier, signal)
        #endif
    }

    private func read(_ file: String) -> String {
        (try? String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)) ?? ""
    }

    /// `TEST_WORKER_EXECUTABLE`, or `checkout-worker` in the build directory the test binary runs from.
    private static func executable() throws -> URL {
        if let path = ProcessInfo.processInfo.environment[executableVariable], !path.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: path) else {
                throw WorkerProcessError(code: .executableNotFound, context: "\(executableVariable)=\(path) is not an executable file")
            }
            return URL(fileURLWithPath: path)
        }
        // Linux runs the test binary itself; macOS loads the .xctest bundle into a runner.
        let testBinaries =
            [URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()]
            + Bundle.allBundles.map(\.bundleURL).filter { $0.pathExtension == "xctest" }
        var searched: [String] = []
        for binary in testBinaries {
            var directory = binary.deletingLastPathComponent()
            for _ in 0..<4 {
                let candidate = directory.appendingPathComponent("checkout-worker")
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
                searched.append(directory.path)
                directory.deleteLastPathComponent()
            }
        }
        throw WorkerProcessError(
            code: .executableNotFound,
            context: "checkout-worker is not built next to the tests (looked in \(searched.joined(separator: ", "))): "
                + "run `swift build --build-tests` first (scripts/test.sh does), or set \(executableVariable)"
        )
    }
}
