public import Foundation
import Synchronization

/// Where ``JSONLogHandler`` writes its lines: standard error in production, a collector in tests.
///
/// A sink receives whole lines, newline included, one call per line, so a line is never
/// interleaved with another.
public struct LogSink: Sendable {
    private let writeLine: @Sendable (String) -> Void

    /// A sink that hands each line to `writeLine`; the closure may be called from any thread.
    public init(_ writeLine: @escaping @Sendable (_ line: String) -> Void) {
        self.writeLine = writeLine
    }

    func write(_ line: String) {
        writeLine(line)
    }

    /// The process's standard error, written one whole line at a time under a process-wide lock.
    public static let standardError = LogSink { line in
        standardErrorLock.withLock { _ in
            try? FileHandle.standardError.write(contentsOf: Data(line.utf8))
        }
    }

    private static let standardErrorLock = Mutex(())
}
