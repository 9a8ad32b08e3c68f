import CheckoutDomain
import Foundation
import SQLKit
import SQLiteKit
import SQLiteNIO
import Testing

@testable import CheckoutPersistence

/// The SQLite writer commits the writes of many callers in one transaction, and still answers each one
/// with its own result, undoes only what its caller asked to undo, and tells all of them when the commit fails.
@Suite struct SQLiteWriterTests {
    private struct BodyFailure: Error, Equatable {}

    @Test func concurrentWritersAreAllCommittedAndEachGetsItsOwnResult() async throws {
        try await Self.withWriter { writer, path in
            let doubled = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
                for number in 0..<200 {
                    group.addTask {
                        let result = try await writer.write { database in
                            let row = try await database.raw("INSERT INTO numbers (n) VALUES (\(bind: number)) RETURNING n * 2 AS doubled")
                                .first()
                            return .commit(try #require(row).decode(column: "doubled", as: Int.self))
                        }
                        return (number, result)
                    }
                }
                return try await group.reduce(into: [Int: Int]()) { $0[$1.0] = $1.1 }
            }

            #expect(doubled == Dictionary(uniqueKeysWithValues: (0..<200).map { ($0, $0 * 2) }))
            #expect(try await Self.committedNumbers(path) == Set(0..<200))
        }
    }

    @Test func aBodyThatThrowsOrRollsBackUndoesOnlyItselfWhileItsBatchMatesCommit() async throws {
        try await Self.withWriter { writer, path in
            let results = try await Self.inOneBatch(
                of: writer,
                [
                    { database in
                        try await Self.insert(1, on: database)
                        return .commit("first")
                    },
                    { database in
                        try await Self.insert(2, on: database)
                        throw BodyFailure()
                    },
                    { database in
                        try await Self.insert(3, on: database)
                        return .rollback("changed its mind")
                    },
                    { database in
                        // The same transaction as the first write, not yet committed: the proof that they are one batch.
                        let seesFirst = try await database.raw("SELECT n FROM numbers WHERE n = 1").first() != nil
                        let othersSeeFirst = try await Self.committedNumbers(path).contains(1)
                        try await Self.insert(4, on: database)
                        return .commit("sees the first: \(seesFirst), others see it: \(othersSeeFirst)")
                    },
                ])

            #expect(try results[0].get() == "first")
            #expect(throws: BodyFailure()) { try results[1].get() }
            #expect(try results[2].get() == "changed its mind")
            #expect(try results[3].get() == "sees the first: true, others see it: false")
            #expect(try await Self.committedNumbers(path) == [1, 4])
        }
    }

    @Test func aBatchWhoseCommitFailsGivesEveryCallerTheErrorAndKeepsNothing() async throws {
        try await Self.withWriter { writer, path in
            let results = try await Self.inOneBatch(
                of: writer,
                [
                    { database in
                        try await Self.insert(1, on: database)
                        return .commit("first")
                    },
                    { database in
                        // A deferred foreign key is checked at COMMIT: this orphan makes the batch's COMMIT fail.
                        try await database.raw("INSERT INTO children (parent) VALUES (42)").run()
                        return .commit("orphan")
                    },
                    { database in
                        try await Self.insert(3, on: database)
                        return .commit("third")
                    },
                ])

            for result in results {
                #expect(throws: SQLiteFailure.self) { try result.get() }
            }
            #expect(try await Self.committedNumbers(path).isEmpty)
            _ = try await writer.write { database in .commit(try await Self.insert(5, on: database)) }
            #expect(try await Self.committedNumbers(path) == [5])
        }
    }

    /// A text is bound with its length: SQLite reads one bound without up to its first NUL, and a
    /// catalog's product name holding one was stored cut there.
    @Test func aTextHoldingANulIsStoredWhole() async throws {
        try await Self.withWriter { writer, path in
            let text = "a\u{0}b"
            try await writer.write { database in
                try await database.raw("CREATE TABLE texts (t TEXT NOT NULL)").run()
                return .commit(try await database.raw("INSERT INTO texts (t) VALUES (\(bind: text))").run())
            }
            let (bytes, read) = try await writer.write { database in
                let row = try #require(try await database.raw("SELECT t, length(CAST(t AS BLOB)) AS bytes FROM texts").first())
                return .commit((try row.decode(column: "bytes", as: Int.self), try row.decode(column: "t", as: String.self)))
            }
            #expect(bytes == 3)
            #expect(read == text)
        }
    }

    @Test func aWriteSentToAReaderFails() async throws {
        try await TestDatabase.sqlite.withFreshURL { url in
            let path = String(url.dropFirst("sqlite://".count))
            let engine = SQLiteEngine(path: path, readers: 1, logger: TestLogger.logger, statistics: DatabaseStatistics())
            try await engine.whileRunning {
                try await engine.transaction { database in
                    .commit(try await database.raw("CREATE TABLE numbers (n BIGINT PRIMARY KEY)").run())
                }

                await #expect(throws: SQLiteFailure.self) {
                    try await engine.read { try await Self.insert(1, on: $0) }
                }
            }
        }
    }

    /// A disk that stops answering holds the writer's batch, and every write behind it: the database is
    /// reported unreachable once the batch has taken longer than its limit, and reachable once it ends.
    @Test func aBatchHeldPastItsLimitMakesTheDatabaseUnreachableUntilItEnds() async throws {
        try await TestDatabase.sqlite.withFreshURL { url in
            let path = String(url.dropFirst("sqlite://".count))
            let engine = SQLiteEngine(
                path: path, readers: 1, logger: TestLogger.logger, statistics: DatabaseStatistics(), stallLimit: .milliseconds(200))
            try await engine.whileRunning {
                try await engine.checkReachable()
                try await Self.whileAWriteHoldsItsBatch(submittedBy: { try await engine.transaction($0) }) {
                    try await Task.sleep(for: .milliseconds(300))
                    await #expect(throws: RetryableError.self) { try await engine.checkReachable() }
                }
                try await engine.checkReachable()
            }
        }
    }

    /// A caller cancelled (the shutdown's grace period is over) while a disk holds the batch stops waiting
    /// at once: a write still queued is dropped, one whose batch has not reached it is skipped, and one
    /// already running answers its caller now, and commits or not whenever its batch ends.
    @Test func aCancelledCallerStopsWaitingForABatchThatADiskHolds() async throws {
        try await Self.withWriter { writer, path in
            let (gate, opening) = AsyncStream<Void>.makeStream()
            defer { opening.finish() }
            let (started, start) = AsyncStream<Void>.makeStream()
            var callers: [Task<Void, any Error>] = []
            try await Self.whileAWriteHoldsItsBatch(submittedBy: { try await writer.write($0) }) {
                callers.append(
                    Task {
                        try await writer.write { database in
                            try await Self.insert(1, on: database)
                            start.yield()
                            for await _ in gate {}
                            return .commit(())
                        }
                    })
                callers.append(Task { try await writer.write { database in .commit(try await Self.insert(2, on: database)) } })
                while await writer.queuedWrites < 2 {
                    try await Task.sleep(for: .milliseconds(1))
                }
            }
            for await _ in started { break }
            callers.append(Task { try await writer.write { database in .commit(try await Self.insert(3, on: database)) } })
            while await writer.queuedWrites < 1 {
                try await Task.sleep(for: .milliseconds(1))
            }

            for (index, caller) in callers.enumerated() {
                caller.cancel()
                let outcome = await caller.outcome(within: .seconds(5))
                #expect(throws: RetryableError.self, "caller \(index + 1)") { try outcome?.get() }
            }

            opening.finish()
            _ = try await writer.write { database in .commit(try await Self.insert(4, on: database)) }
            #expect(try await Self.committedNumbers(path) == [1, 4])
        }
    }

    /// The store stops even while a disk holds the writer's batch: once the batch has taken longer than
    /// the stall limit, closing stops waiting for it, instead of holding the worker's exit for ever.
    @Test func aStoreStopsWhileADiskHoldsItsBatch() async throws {
        try await TestDatabase.sqlite.withFreshURL { url in
            let path = String(url.dropFirst("sqlite://".count))
            let engine = SQLiteEngine(
                path: path, readers: 1, logger: TestLogger.logger, statistics: DatabaseStatistics(), stallLimit: .milliseconds(200))
            let (gate, opening) = AsyncStream<Void>.makeStream()
            defer { opening.finish() }
            let (started, start) = AsyncStream<Void>.makeStream()
            let running = Task {
                try await engine.whileRunning {
                    let held = Task {
                        try await engine.transaction { _ in
                            start.yield()
                            for await _ in gate {}
                            return .commit(())
                        }
                    }
                    for await _ in started { break }
                    held.cancel()
                    _ = await held.result
                }
            }

            #expect(await running.outcome(within: .seconds(5)) != nil, "the store kept waiting for the batch")
        }
    }

    /// A batch that is only slow is waited for when the store stops, however it is stopped (the
    /// sub-commands and the tests cancel it), and commits before the store is closed.
    @Test func aStoreStoppingWaitsForASlowBatch() async throws {
        try await TestDatabase.sqlite.withFreshURL { url in
            let path = String(url.dropFirst("sqlite://".count))
            let engine = SQLiteEngine(path: path, readers: 1, logger: TestLogger.logger, statistics: DatabaseStatistics())
            try await engine.whileRunning {
                try await engine.transaction { .commit(try await $0.raw("CREATE TABLE numbers (n BIGINT PRIMARY KEY)").run()) }
                let (started, start) = AsyncStream<Void>.makeStream()
                Task {
                    try await engine.transaction { database in
                        start.yield()
                        try await Task.sleep(for: .milliseconds(300))
                        return .commit(try await Self.insert(1, on: database))
                    }
                }
                for await _ in started { break }
            }

            #expect(try await Self.committedNumbers(path) == [1])
        }
    }

    /// Runs `body` with a writer on a new file that has a `numbers` table and a `children` table whose
    /// foreign key is checked at commit.
    private static func withWriter(_ body: (SQLiteWriter, String) async throws -> Void) async throws {
        try await TestDatabase.sqlite.withFreshURL { url in
            let path = String(url.dropFirst("sqlite://".count))
            let statistics = DatabaseStatistics()
            let writer = SQLiteWriter(
                file: SQLiteFile(path: path, logger: TestLogger.logger, statistics: statistics), statistics: statistics)
            do {
                try await writer.write { database in
                    try await database.raw("CREATE TABLE numbers (n BIGINT PRIMARY KEY)").run()
                    try await database.raw("CREATE TABLE parents (id BIGINT PRIMARY KEY)").run()
                    try await database.raw(
                        """
                        CREATE TABLE children (parent BIGINT NOT NULL REFERENCES parents (id) DEFERRABLE INITIALLY DEFERRED)
                        """
                    ).run()
                    return .commit(())
                }
                try await body(writer, path)
                await writer.close()
            } catch {
                await writer.close()
                throw error
            }
        }
    }

    /// Runs `bodies` in one batch, in order: a first write holds the writer until all of them are queued.
    private static func inOneBatch(
        of writer: SQLiteWriter,
        _ bodies: [@Sendable (any SQLDatabase) async throws -> TransactionEnd<String>]
    ) async throws -> [Result<String, any Error>] {
        var callers: [Task<String, any Error>] = []
        try await whileAWriteHoldsItsBatch(submittedBy: { try await writer.write($0) }) {
            for body in bodies {
                callers.append(Task { try await writer.write(body) })
                while await writer.queuedWrites < callers.count {
                    try await Task.sleep(for: .milliseconds(1))
                }
            }
        }
        var results: [Result<String, any Error>] = []
        for caller in callers {
            results.append(await caller.result)
        }
        return results
    }

    /// Runs `body` while a write that `submit` hands to the writer holds its batch open, as a disk that
    /// stops answering would; then lets that write commit and waits for it.
    private static func whileAWriteHoldsItsBatch(
        submittedBy submit: @escaping @Sendable (@escaping Write) async throws -> Void, _ body: () async throws -> Void
    ) async throws {
        let (started, start) = AsyncStream<Void>.makeStream()
        let (gate, opening) = AsyncStream<Void>.makeStream()
        let holder = Task {
            try await submit { _ in
                start.yield()
                for await _ in gate {}
                return .commit(())
            }
        }
        for await _ in started { break }
        do {
            try await body()
        } catch {
            opening.finish()
            _ = await holder.result
            throw error
        }
        opening.finish()
        try await holder.value
    }

    private typealias Write = @Sendable (any SQLDatabase) async throws -> TransactionEnd<Void>

    private static func insert(_ number: Int, on database: any SQLDatabase) async throws {
        try await database.raw("INSERT INTO numbers (n) VALUES (\(bind: number))").run()
    }

    /// The numbers committed, as a connection of its own sees them.
    private static func committedNumbers(_ path: String) async throws -> Set<Int> {
        let connection = try await SQLiteConnection.open(storage: .file(path: path))
        do {
            let rows = try await connection.sql().raw("SELECT n FROM numbers").all()
            try await connection.close()
            return Set(try rows.map { try $0.decode(column: "n", as: Int.self) })
        } catch {
            try? await connection.close()
            throw error
        }
    }
}
