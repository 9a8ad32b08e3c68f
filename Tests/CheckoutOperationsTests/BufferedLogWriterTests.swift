import Foundation
import Synchronization
import Testing

@testable import CheckoutOperations

/// ``BufferedLogWriter`` over a pipe the test reads, or leaves unread as a stuck log collector would.
@Suite struct BufferedLogWriterTests {
    @Test func writesEveryLineInTheOrderGiven() throws {
        let (sut, pipe, _) = try makeSUT()
        let lines = (0..<1_000).map { "line \($0)\n" }

        for line in lines { sut.write(Array(line.utf8)) }

        #expect(pipe.lines(until: { $0.count == lines.count }) == lines)
        #expect(sut.droppedLines == 0)
    }

    @Test func writesALineThatComesAfterItWentIdle() throws {
        let (sut, pipe, _) = try makeSUT()
        sut.write(Array("first\n".utf8))
        #expect(pipe.lines(until: { $0.count == 1 }) == ["first\n"])
        Thread.sleep(forTimeInterval: 0.05)

        sut.write(Array("after a pause\n".utf8))

        #expect(pipe.lines(until: { $0.count == 1 }) == ["after a pause\n"])
    }

    /// The caller never waits for the reader: past the buffer, lines are dropped and counted, and
    /// reported once the reader reads again.
    @Test func aReaderThatStopsReadingCostsLinesNotTheCallersTime() throws {
        let (sut, pipe, reports) = try makeSUT(capacity: 4_096)
        let lines = (0..<5_000).map { String(format: "line %05d of a reader that stopped reading\n", $0) }

        for line in lines { sut.write(Array(line.utf8)) }
        let dropped = sut.droppedLines
        let kept = pipe.lines(until: { $0.count + dropped == lines.count })
        sut.flush(within: .seconds(10))

        #expect(dropped > 0)
        #expect(kept.count + dropped == lines.count)
        #expect(kept == lines.filter(Set(kept).contains))
        #expect(reports.total == dropped)
    }

    /// A descriptor that fails (here a full disk) costs the lines, counted; reporting them to it would
    /// only fail again.
    @Test func linesADescriptorRefusesAreCountedAndNotReportedToIt() throws {
        let full = open("/dev/full", O_WRONLY)
        try #require(full >= 0)
        let reports = DroppedReports()
        let sut = BufferedLogWriter(descriptor: full, capacity: 1 << 20, threadName: "test-log-writer", reportDropped: reports.record)

        for index in 0..<10 { sut.write(Array("line \(index)\n".utf8)) }
        sut.flush(within: .seconds(10))

        #expect(sut.droppedLines == 10)
        #expect(reports.total == 0)
    }

    /// Lines that arrive while the thread writes wait about 2 ms for the next write; a flush does not
    /// return before it.
    @Test func aFlushReturnsOnceTheLinesAreWritten() throws {
        let (sut, pipe, _) = try makeSUT()
        let lines = (0..<2_000).map { "last words \($0)\n" }

        for line in lines { sut.write(Array(line.utf8)) }
        sut.flush(within: .seconds(10))

        #expect(pipe.availableLines() == lines)
    }

    /// A worker exits even when standard error takes nothing more.
    @Test func aFlushGivesUpAtItsLimitWhenTheReaderIsStuck() throws {
        let (sut, _, _) = try makeSUT()
        let line = Array(String(repeating: "x", count: 999).utf8) + [UInt8(ascii: "\n")]
        for _ in 0..<200 { sut.write(line) }
        let started = ContinuousClock.now

        sut.flush(within: .milliseconds(200))

        #expect(ContinuousClock.now - started < .seconds(30))
    }

    private func makeSUT(capacity: Int = 1 << 20) throws -> (BufferedLogWriter, Pipe, DroppedReports) {
        let pipe = try Pipe()
        let reports = DroppedReports()
        let sut = BufferedLogWriter(
            descriptor: pipe.writeEnd, capacity: capacity, threadName: "test-log-writer", reportDropped: reports.record)
        return (sut, pipe, reports)
    }

    /// What the writer reported dropping.
    private final class DroppedReports: Sendable {
        private let counts = Mutex<[Int]>([])

        var total: Int { counts.withLock { $0.reduce(0, +) } }

        @Sendable func record(_ dropped: Int) {
            counts.withLock { $0.append(dropped) }
        }
    }

    /// A pipe left open when the test ends: the writer's thread outlives the test and may hold lines,
    /// and a descriptor number closed under it could be reused by another test's file.
    private struct Pipe {
        let readEnd: Int32
        let writeEnd: Int32

        init() throws {
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
            readEnd = ends[0]
            writeEnd = ends[1]
        }

        /// Reads lines until `isDone` says they are all there, or nothing came for 5 s: a writer that
        /// stopped fails the test instead of hanging it, which the suite's time limit cannot interrupt.
        func lines(until isDone: ([String]) -> Bool) -> [String] {
            var text = ""
            var buffer = [UInt8](repeating: 0, count: 65_536)
            var lines: [String] = []
            while !isDone(lines) {
                var readable = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
                guard poll(&readable, 1, 5_000) > 0 else { break }
                let count = read(readEnd, &buffer, buffer.count)
                guard count > 0 else { break }
                text += String(decoding: buffer[..<count], as: UTF8.self)
                lines = text.split(separator: "\n").map { $0 + "\n" }
            }
            return lines
        }

        /// The lines in the pipe now, without waiting for more.
        func availableLines() -> [String] {
            var text = ""
            var buffer = [UInt8](repeating: 0, count: 65_536)
            var readable = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
            while poll(&readable, 1, 0) > 0 {
                let count = read(readEnd, &buffer, buffer.count)
                guard count > 0 else { break }
                text += String(decoding: buffer[..<count], as: UTF8.self)
            }
            return text.split(separator: "\n").map { $0 + "\n" }
        }
    }
}
