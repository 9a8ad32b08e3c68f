import Foundation
import Logging

/// Where ``JSONLogHandler`` and ``TextLogHandler`` write their lines: standard error in production, a
/// collector in tests.
///
/// A sink receives whole lines, newline included, one call per line, so a line is never
/// interleaved with another.
public struct LogSink: Sendable {
    private let writeLine: @Sendable ([UInt8]) -> Void

    /// A sink that hands each line to `writeLine`; the closure may be called from any thread.
    public init(_ writeLine: @escaping @Sendable (_ line: String) -> Void) {
        self.writeLine = { writeLine(String(decoding: $0, as: UTF8.self)) }
    }

    private init(bytes writeLine: @escaping @Sendable ([UInt8]) -> Void) {
        self.writeLine = writeLine
    }

    /// Writes one line of UTF-8.
    func write(_ line: [UInt8]) {
        writeLine(line)
    }

    /// The process's standard error, written by a thread of its own (``BufferedLogWriter``): a worker
    /// writes a line per command, from the thread that runs the commands, which a slow or stuck
    /// reader of standard error must not stop. Up to 1 MiB of lines waits for it; past that, lines are
    /// dropped and counted.
    public static let standardError = LogSink(bytes: standardErrorWriter.write)

    /// Lines of ``standardError`` dropped so far because standard error did not keep up.
    public static var droppedStandardErrorLines: Int { standardErrorWriter.droppedLines }

    /// Waits until the lines written to ``standardError`` so far are out, or `limit` has passed.
    public static func flushStandardError(within limit: Duration) {
        standardErrorWriter.flush(within: limit)
    }

    private static let standardErrorWriter = BufferedLogWriter(
        descriptor: STDERR_FILENO, capacity: 1 << 20, threadName: "log-writer"
    ) { dropped in
        Logger(label: "checkout-worker").warning(
            "standard error did not keep up: log lines dropped", metadata: ["log.dropped_lines": .stringConvertible(dropped)])
    }
}
