import CheckoutDomain
import CheckoutTestSupport
import Foundation
import SQLKit
import Testing

@testable import CheckoutPersistence

/// A SQLite read runs on its caller's thread: handing it to a thread of its own and back cost more
/// than the read itself. Reading there, it still sees the writer's last commit.
@Suite struct SQLiteReaderTests {
    @Test func aReadRunsOnItsCallersThreadAndSeesTheWritersLastCommit() async throws {
        try await Self.withNumbers(readers: 2) { writer, readers in
            let caller = SQLiteThread(name: "a caller's thread")
            defer { caller.stop() }
            try await writer.write { database in
                try await database.raw("INSERT INTO numbers (n) VALUES (7)").run()
                return .commit(())
            }

            let (callerThread, readerThread, numbers) = try await withTaskExecutorPreference(caller) {
                let callerThread = Self.currentThread()
                let (readerThread, numbers) = try await readers.withConnection { reader in
                    try await reader.run { database in
                        let rows = try await database.raw("SELECT n FROM numbers").all()
                        return (Self.currentThread(), try rows.map { try $0.decode(column: "n", as: Int.self) })
                    }
                }
                return (callerThread, readerThread, numbers)
            }

            #expect(readerThread == callerThread)
            #expect(numbers == [7])
        }
    }

    /// Every connection may be held by a read of a disk that stopped answering, and the worker's shutdown
    /// cancels the commands waiting for one: they stop waiting at once, and the connection, once given
    /// back, serves the next caller rather than the one that left.
    @Test func aCallerCancelledWhileWaitingForAConnectionStopsWaiting() async throws {
        try await Self.withNumbers(readers: 1) { _, readers in
            let (taken, tookIt) = AsyncStream<Void>.makeStream()
            let (held, giveBack) = AsyncStream<Void>.makeStream()
            let holder = Task {
                try await readers.withConnection { _ in
                    tookIt.yield()
                    for await _ in held {}
                }
            }
            for await _ in taken { break }
            let waiter = Task { try await readers.withConnection { _ in } }
            while await readers.waitingCallers == 0 { await Task.yield() }

            waiter.cancel()
            let outcome = await waiter.outcome(within: .seconds(5))
            giveBack.finish()
            try await holder.value
            let next = await Task { try await readers.withConnection { _ in 7 } }.outcome(within: .seconds(5))

            guard case .failure(let error as RetryableError) = outcome else {
                Issue.record("the cancelled caller ended with \(String(describing: outcome)), not a retryable error")
                return
            }
            #expect(error.code == .databaseUnavailable)
            #expect(try next?.get() == 7)
        }
    }

    /// Runs `body` with a writer and `readers` readers on a new file with a `numbers` table, and closes them.
    private static func withNumbers(
        readers size: Int, _ body: (SQLiteWriter, SQLiteConnectionPool) async throws -> Void
    ) async throws {
        try await TestDatabase.sqlite.withFreshURL { url in
            let file = SQLiteFile(
                path: String(url.dropFirst("sqlite://".count)), logger: TestLogger.logger, statistics: DatabaseStatistics())
            let writer = SQLiteWriter(file: file, statistics: file.statistics)
            let readers = SQLiteConnectionPool(file: file, size: size)
            do {
                try await writer.write { database in
                    try await database.raw("CREATE TABLE numbers (n BIGINT PRIMARY KEY)").run()
                    return .commit(())
                }
                try await body(writer, readers)
            } catch {
                await readers.close()
                await writer.close()
                throw error
            }
            await readers.close()
            await writer.close()
        }
    }

    /// Which thread runs the caller: synchronous, as `Thread.current` must be read.
    private static func currentThread() -> ObjectIdentifier {
        ObjectIdentifier(Thread.current)
    }
}
