public import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc

private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin

private let systemWrite = Darwin.write
#endif

/// Where ``JSONLogHandler`` writes its lines: standard error in production, a collector in tests.
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

    /// The process's standard error, written one whole line at a time under a process-wide lock, with
    /// write(2) itself: a worker writes a line per command, and FileHandle copies each into a Data first.
    public static let standardError = LogSink(bytes: { line in
        standardErrorLock.withLock { _ in
            line.withUnsafeBytes { buffer in
                var written = 0
                while written < buffer.count {
                    let result = systemWrite(STDERR_FILENO, buffer.baseAddress! + written, buffer.count - written)
                    if result > 0 {
                        written += result
                    } else if result < 0, errno == EINTR {
                        continue
                    } else {
                        return  // Standard error is gone or full: a log line is not worth blocking or crashing for.
                    }
                }
            }
        }
    })

    private static let standardErrorLock = Mutex(())
}
