import Foundation
import Testing

@testable import CheckoutOperations

#if canImport(Glibc)
import Glibc
#endif

/// ``BufferedLogWriter`` over a pipe the test reads, or leaves unread as a stuck log collector would.
@Suite(.timeLimit(.minutes(1))) struct BufferedLogWriterTests {
    @Test func writesEveryLineInTheOrderGiven() throws {
        let pipe = try Pipe()
        let sut = BufferedLogWriter(descriptor: pipe.writeEnd, capacity: 1 << 20, threadName: "test-log-writer")
        let lines = (0..<1_000).map { "line \($0)\n" }

        for line in lines { sut.write(Array(line.utf8)) }

        #expect(pipe.read(until: { $0.count == lines.count }) == lines)
        #expect(sut.droppedLines == 0)
    }

    /// The caller never waits for the reader: past the buffer, lines are dropped and counted, and the
    /// reader is told how many once it reads again.
    @Test func aReaderThatStopsReadingCostsLinesNotTheCallersTime() throws {
        let pipe = try Pipe()
        let sut = BufferedLogWriter(descriptor: pipe.writeEnd, capacity: 4_096, threadName: "test-log-writer")
        let lines = (0..<5_000).map { String(format: "line %05d of a reader that stopped reading\n", $0) }

        for line in lines { sut.write(Array(line.utf8)) }
        let dropped = sut.droppedLines
        let received = pipe.read(until: { Self.accounted($0) == lines.count })

        #expect(dropped > 0)
        let notices = try received.filter(Self.isNotice).map { try #require(Self.object($0)) }
        #expect(notices.allSatisfy { $0["level"] as? String == "warning" })
        #expect(notices.map { $0["dropped_lines"] as? Int ?? 0 }.reduce(0, +) == dropped)
        let kept = received.filter { !Self.isNotice($0) }
        #expect(kept.count + dropped == lines.count)
        #expect(kept == lines.filter(Set(kept).contains))
        #expect(received.last.map(Self.isNotice) == true)
    }

    /// Lines that arrive while the thread writes wait about 2 ms for the next write; a flush does not
    /// return before it.
    @Test func aFlushReturnsOnceTheLinesAreWritten() throws {
        let pipe = try Pipe()
        let sut = BufferedLogWriter(descriptor: pipe.writeEnd, capacity: 1 << 20, threadName: "test-log-writer")
        let lines = (0..<2_000).map { "last words \($0)\n" }

        for line in lines { sut.write(Array(line.utf8)) }
        sut.flush(within: .seconds(10))

        #expect(pipe.readAvailable() == lines)
    }

    /// Lines written, and lines a notice says were dropped.
    private static func accounted(_ received: [String]) -> Int {
        received.reduce(0) { count, line in
            count + (isNotice(line) ? (object(line)?["dropped_lines"] as? Int ?? 0) : 1)
        }
    }

    private static func isNotice(_ line: String) -> Bool {
        line.contains("log lines dropped")
    }

    private static func object(_ line: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }

    /// A pipe whose ends close with the test; the writer's thread outlives it, blocked on nothing.
    private final class Pipe {
        let readEnd: Int32
        let writeEnd: Int32

        init() throws {
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
            readEnd = ends[0]
            writeEnd = ends[1]
        }

        /// Reads lines until `isDone` says they are all there.
        func read(until isDone: ([String]) -> Bool) -> [String] {
            var text = ""
            var buffer = [UInt8](repeating: 0, count: 65_536)
            var lines: [String] = []
            while !isDone(lines) {
                let count = Glibc.read(readEnd, &buffer, buffer.count)
                guard count > 0 else { break }
                text += String(decoding: buffer[..<count], as: UTF8.self)
                lines = text.split(separator: "\n", omittingEmptySubsequences: true).map { $0 + "\n" }
            }
            return lines
        }

        /// The lines in the pipe now, without waiting for more.
        func readAvailable() -> [String] {
            _ = fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) | O_NONBLOCK)
            return read(until: { _ in false })
        }

        deinit {
            close(readEnd)
            close(writeEnd)
        }
    }
}
