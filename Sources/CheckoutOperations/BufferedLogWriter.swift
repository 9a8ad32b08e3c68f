import Foundation
import JSONWriting
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
/// (``droppedLines``), and once the descriptor takes lines again a line of its own says how many were
/// lost. Lines still in the buffer when the process dies without ``flush(within:)`` are lost too: a
/// line that finds the thread idle is written at once and the others within about 2 ms, so those
/// are the last few milliseconds' at most.
final class BufferedLogWriter: @unchecked Sendable {
    private let descriptor: Int32
    private let capacity: Int
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var pending: [UInt8] = []
    private var droppedSinceWrite = 0
    private var isWriting = false
    private var isIdle = false
    private let dropped = Atomic<Int>(0)
    /// Seconds the thread lets lines gather after a write.
    private static let gathering = 0.002

    /// - Parameters:
    ///   - descriptor: Where the lines go; it stays open for the life of the process.
    ///   - capacity: Bytes of lines that may wait for the descriptor before lines are dropped.
    init(descriptor: Int32, capacity: Int, threadName: String) {
        self.descriptor = descriptor
        self.capacity = capacity
        let thread = Thread { [self] in run() }
        thread.name = threadName
        thread.start()
    }

    /// Lines dropped so far because the buffer was full.
    var droppedLines: Int { dropped.load(ordering: .relaxed) }

    /// Queues `line` (newline included), or drops it if the buffer is full; never waits for the descriptor.
    ///
    /// Wakes the thread only when it has gone idle, or when a quarter of the buffer waits: a wake-up per
    /// line would cost the caller about what the write(2) it spares does.
    func write(_ line: [UInt8]) {
        condition.lock()
        defer { condition.unlock() }
        guard pending.count + line.count <= capacity else {
            droppedSinceWrite += 1
            dropped.add(1, ordering: .relaxed)
            return
        }
        pending.append(contentsOf: line)
        if isIdle || pending.count >= capacity / 4 {
            // A broadcast: a flush may be waiting on the condition beside the thread.
            condition.broadcast()
        }
    }

    /// Waits until every line queued so far is written, or `limit` has passed: before the process exits.
    func flush(within limit: Duration) {
        let deadline = Date(timeIntervalSinceNow: Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18)
        condition.lock()
        defer { condition.unlock() }
        while !pending.isEmpty || isWriting || droppedSinceWrite > 0 {
            guard condition.wait(until: deadline) else { return }
        }
    }

    private func run() {
        var batch: [UInt8] = []
        condition.lock()
        while true {
            guard !pending.isEmpty || droppedSinceWrite > 0 else {
                isIdle = true
                condition.wait()
                isIdle = false
                continue
            }
            swap(&batch, &pending)
            let droppedNow = droppedSinceWrite
            droppedSinceWrite = 0
            isWriting = true
            condition.unlock()

            writeAll(batch)
            batch.removeAll(keepingCapacity: true)
            if droppedNow > 0 {
                writeAll(Self.droppedNotice(droppedNow))
            }

            condition.lock()
            isWriting = false
            condition.broadcast()
            // Lets the lines of the next moments gather into one write, unless a quarter of the buffer waits.
            _ = condition.wait(until: Date(timeIntervalSinceNow: Self.gathering))
        }
    }

    private func writeAll(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            var written = 0
            while written < buffer.count {
                let result = systemWrite(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if result > 0 {
                    written += result
                } else if result < 0, errno == EINTR {
                    continue
                } else {
                    return  // The descriptor is gone: a log line is not worth crashing for.
                }
            }
        }
    }

    /// A line in ``JSONLogHandler``'s fields, for a collector that parses every line.
    private static func droppedNotice(_ count: Int) -> [UInt8] {
        var line = JSONWriter()
        line.beginObject()
        line.field("timestamp", timestamp: Date())
        line.field("level", "warning")
        line.field("label", "checkout-worker")
        line.field("source", "CheckoutOperations")
        line.field("message", "standard error did not keep up: \(count) log lines dropped")
        line.field("dropped_lines", count)
        line.endObject()
        return line.bytes + [UInt8(ascii: "\n")]
    }
}
