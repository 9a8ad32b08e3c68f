import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc

private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin

private let systemWrite = Darwin.write
#endif

/// Writes log lines to a file descriptor from a thread of its own, so that a reader that is slow or
/// stuck (a full pipe, a log collector that stopped reading, a disk that stalls) never stops the
/// thread that logs: the broker connection's, which runs every command.
///
/// Lines wait in a buffer of at most `capacity` bytes and are written together, one write(2) for as
/// many as have gathered in about 2 ms. A line that does not fit is dropped and counted
/// (``droppedLines``), and once the descriptor takes lines again the thread reports how many were
/// lost. Lines still in the buffer when the process dies without ``flush(within:)`` are lost too: a
/// line that finds the thread idle is written at once and the others within about 2 ms, so those are
/// the last few milliseconds' at most.
///
/// `@unchecked Sendable`: every mutable field is read and written under `condition` only, and the
/// count of dropped lines is atomic.
final class BufferedLogWriter: @unchecked Sendable {
    private let descriptor: Int32
    private let capacity: Int
    private let reportDropped: @Sendable (Int) -> Void
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var pending: [UInt8] = []
    private var droppedSinceWrite = 0
    private var isWriting = false
    private var isIdle = false
    private let dropped = Atomic<Int>(0)

    /// How long the thread lets lines gather after a write. Slept, not waited for on the condition,
    /// whose timed wait follows the wall clock: a clock stepped back would stretch it.
    private static let gathering = 0.002

    /// - Parameters:
    ///   - descriptor: Where the lines go; it must stay open for the life of the process, as the thread does.
    ///   - capacity: Bytes of lines that may wait for the descriptor before lines are dropped.
    ///   - reportDropped: Called on the thread with how many lines were dropped, after the next write
    ///     that succeeds; it may write a line of its own, which waits for the next write.
    init(descriptor: Int32, capacity: Int, threadName: String, reportDropped: @escaping @Sendable (Int) -> Void) {
        self.descriptor = descriptor
        self.capacity = capacity
        self.reportDropped = reportDropped
        let thread = Thread { [self] in run() }
        thread.name = threadName
        thread.start()
    }

    /// Lines dropped so far: the buffer was full, or the descriptor failed.
    var droppedLines: Int { dropped.load(ordering: .relaxed) }

    /// Queues `line` (newline included), or drops it if the buffer is full; never waits for the descriptor.
    ///
    /// Wakes the thread only when it has gone idle: a wake-up per line would cost the caller about
    /// what the write(2) it spares does.
    func write(_ line: [UInt8]) {
        condition.lock()
        defer { condition.unlock() }
        if pending.count + line.count <= capacity {
            pending.append(contentsOf: line)
        } else {
            droppedSinceWrite += 1
            dropped.add(1, ordering: .relaxed)
        }
        if isIdle {
            condition.signal()
        }
    }

    /// Waits until every line queued so far is written, or `limit` has passed: before the process exits.
    func flush(within limit: Duration) {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            condition.lock()
            let isDone = pending.isEmpty && droppedSinceWrite == 0 && !isWriting
            condition.unlock()
            if isDone { return }
            Thread.sleep(forTimeInterval: 0.001)
        }
    }

    private func run() {
        var batch: [UInt8] = []
        // Dropped lines are reported after a write that succeeded: a report written to a descriptor
        // that fails would only fail again, and make lines to write forever.
        var unreported = 0
        while true {
            condition.lock()
            while pending.isEmpty && droppedSinceWrite == 0 {
                isIdle = true
                condition.wait()
            }
            isIdle = false
            swap(&batch, &pending)
            unreported += droppedSinceWrite
            droppedSinceWrite = 0
            isWriting = true
            condition.unlock()

            let lost = writeAll(batch)
            batch.removeAll(keepingCapacity: true)
            if lost > 0 {
                dropped.add(lost, ordering: .relaxed)
                unreported += lost
            } else if unreported > 0 {
                reportDropped(unreported)
                unreported = 0
            }

            condition.lock()
            isWriting = false
            condition.unlock()
            Thread.sleep(forTimeInterval: Self.gathering)
        }
    }

    /// Writes `bytes` whole, waiting for a descriptor that is full (even one set non-blocking): this
    /// thread is there to wait. Returns how many lines it could not write because the descriptor failed.
    private func writeAll(_ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBytes { buffer in
            var written = 0
            while written < buffer.count {
                let result = systemWrite(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if result > 0 {
                    written += result
                } else if result < 0, errno == EINTR {
                    continue
                } else if result < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                    var writable = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&writable, 1, -1)
                } else {
                    return buffer[written...].count { $0 == UInt8(ascii: "\n") }
                }
            }
            return 0
        }
    }
}
