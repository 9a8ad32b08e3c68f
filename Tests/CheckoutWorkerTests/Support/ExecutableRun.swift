import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process, its output read as it comes, awaited without blocking a thread of the
/// cooperative pool (rabbitmqctl takes seconds; the worker under test runs on that pool).
final class ExecutableRun: Sendable {
    let processIdentifier: Int32
    /// Kept until the process ends.
    private let process: Mutex<Process>
    private let output = CapturedOutput()
    private let exited: Task<Int32, Never>

    /// The built `checkout-worker`, next to the test bundle in `.build/<triple>/debug`.
    static var checkoutWorker: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("checkout-worker")
    }

    init(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let standardOutput = Pipe()
        let standardError = Pipe()
        process.standardOutput = standardOutput
        process.standardError = standardError
        let (termination, terminated) = AsyncStream.makeStream(of: Int32.self)
        process.terminationHandler = { terminated.yield($0.terminationStatus) }
        exited = Task {
            var iterator = termination.makeAsyncIterator()
            return await iterator.next() ?? -1
        }
        try process.run()
        processIdentifier = process.processIdentifier
        self.process = Mutex(process)
        // Blocking reads on threads of their own, not `readabilityHandler`: on Linux tearing its dispatch
        // source down can leave libdispatch's event loop a freed note, and crash the whole test process
        // (swift-corelibs-libdispatch#949).
        for (pipe, isError) in [(standardOutput, false), (standardError, true)] {
            let handle = pipe.fileHandleForReading
            Thread.detachNewThread { [output] in
                while let data = try? handle.read(upToCount: 65_536), !data.isEmpty {
                    output.append(data, error: isError)
                }
                output.endOfFile()
            }
        }
    }

    /// Runs to the end.
    static func run(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) async throws -> ExecutableRun {
        let run = try ExecutableRun(executable, arguments, environment: environment)
        _ = await run.status
        return run
    }

    /// Waits for the process to end, and for what it wrote just before to be read: its exit status, or
    /// the number of the signal that ended it. A child of its own still holding a pipe is given a second.
    var status: Int32 {
        get async {
            let status = await exited.value
            let deadline = ContinuousClock.now + .seconds(1)
            while !output.isComplete, ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(5))
            }
            return status
        }
    }

    var standardOutput: String { output.text(error: false) }
    var standardError: String { output.text(error: true) }
    var outputLines: [String] { standardOutput.split(separator: "\n").map(String.init) }

    /// Ends the process at once, as `kill -9` does: no clean-up, nothing flushed, no goodbye to the broker.
    func killWithoutWarning() {
        _ = kill(processIdentifier, SIGKILL)
    }
}

/// What a child process wrote, appended from the pipes' reading threads.
private final class CapturedOutput: Sendable {
    private let data = Mutex((standardOutput: Data(), standardError: Data()))
    private let pipesAtEnd = Mutex(0)

    func append(_ bytes: Data, error: Bool) {
        data.withLock { error ? $0.standardError.append(bytes) : $0.standardOutput.append(bytes) }
    }

    /// One pipe's reading thread is done.
    func endOfFile() {
        pipesAtEnd.withLock { $0 += 1 }
    }

    /// Whether both pipes were read to their end.
    var isComplete: Bool {
        pipesAtEnd.withLock { $0 == 2 }
    }

    func text(error: Bool) -> String {
        data.withLock { String(decoding: error ? $0.standardError : $0.standardOutput, as: UTF8.self) }
    }
}
