import CheckoutDomain
import SQLKit

/// The one connection that writes to a SQLite file, committing the writes of many callers at once.
///
/// SQLite has one write lock per file, and `synchronous = FULL` makes each commit an fsync. So writers
/// queue here, in Swift, instead of sleeping in SQLite's busy handler: the writer takes what is queued
/// (up to `batchLimit`), runs each write in a savepoint of one `BEGIN IMMEDIATE` transaction, commits
/// once, and only then answers their callers. While it commits, the next batch queues up (group commit);
/// a lone write still costs one commit and waits for nothing else.
actor SQLiteWriter {
    private let file: SQLiteFile
    private let statistics: DatabaseStatistics
    private let batchLimit: Int
    private var connection: SQLiteSession?
    private var queue: [QueuedWrite] = []
    private var writing: Task<Void, Never>?
    /// When the batch being written began; nil between batches.
    private var batchStarted: ContinuousClock.Instant?
    private var isClosed = false

    init(file: SQLiteFile, statistics: DatabaseStatistics, batchLimit: Int = 64) {
        self.file = file
        self.statistics = statistics
        self.batchLimit = max(1, batchLimit)
    }

    /// Runs `body` in the next batch; returns (or throws) once that batch is committed.
    ///
    /// A body that throws or ends with `.rollback` undoes only its own changes. If the transaction
    /// itself fails (its `COMMIT`, or an error after which SQLite rolled it back), every caller in the
    /// batch gets that error and none of their changes stay.
    func write<Result: Sendable>(
        _ body: @escaping @Sendable (any SQLDatabase) async throws -> TransactionEnd<Result>
    ) async throws -> Result {
        guard !isClosed else { throw Self.closed(file) }
        return try await withCheckedThrowingContinuation { continuation in
            queue.append(QueuedWrite(body, answering: continuation))
            if writing == nil {
                // Detached: not on the executor the caller prefers (a worker's handlers share the broker
                // connection's thread), where each of the writer's statements would wait behind every handler.
                writing = Task.detached { await self.writeQueued() }
            }
        }
    }

    /// How many writes wait for the next batch; tests wait on it to know a batch is complete before it starts.
    var queuedWrites: Int { queue.count }

    /// How long the batch being written has taken so far, from opening the connection if it must to its
    /// commit; zero between batches. A batch takes milliseconds; a disk that stops answering holds it,
    /// and every write queues behind it.
    var stalledFor: Duration { batchStarted.map { .now - $0 } ?? .zero }

    /// Fails what is still queued, waits for the batch being written, then closes the connection.
    func close() async {
        isClosed = true
        let unwritten = queue
        queue = []
        for write in unwritten {
            write.fail(Self.closed(file))
        }
        await writing?.value
        await connection?.close()
        connection = nil
    }

    /// A write after the store closed (the worker is stopping): retryable, since another worker, or this
    /// one restarted, can do it.
    private static func closed(_ file: SQLiteFile) -> RetryableError {
        RetryableError(code: .databaseUnavailable, context: "writing to SQLite database \(file.path): the store is closed")
    }

    private func writeQueued() async {
        while !queue.isEmpty {
            let batch = Array(queue.prefix(batchLimit))
            queue.removeFirst(batch.count)
            await write(batch)
        }
        writing = nil
    }

    /// A connection whose transaction failed is closed, not reused: it may still be inside it.
    private func write(_ batch: [QueuedWrite]) async {
        batchStarted = .now
        defer { batchStarted = nil }
        let session: SQLiteSession
        do {
            session = try await openConnection()
        } catch {
            batch.forEach { $0.fail(error) }
            return
        }
        let (finished, failure) = await session.commit(batch, counting: statistics)
        if let failure {
            batch.forEach { $0.fail(failure) }
            await connection?.close()
            connection = nil
        } else {
            finished.forEach { $0.answer() }
        }
    }

    private func openConnection() async throws -> SQLiteSession {
        if let connection { return connection }
        let opened = try await file.openWriter()
        connection = opened
        return opened
    }

    /// Runs every write of `batch` in a savepoint of one transaction and commits it: returns what each
    /// write ended with, or the error that ended the transaction. Runs on the connection's thread, off
    /// the actor, so that callers can queue the next batch meanwhile.
    fileprivate nonisolated static func commit(
        _ batch: [QueuedWrite], on database: any SQLDatabase
    ) async -> (finished: [FinishedWrite], failure: (any Error)?) {
        var finished: [FinishedWrite] = []
        do {
            try await database.raw("BEGIN IMMEDIATE").run()
            for write in batch {
                try await database.raw("SAVEPOINT batched_write").run()
                let ended = await write.run(database)
                finished.append(ended)
                if !ended.keepsChanges {
                    do {
                        try await database.raw("ROLLBACK TO batched_write").run()
                    } catch {
                        // SQLite rolled the whole transaction back (disk full, I/O error…): the body's error says why.
                        throw ended.error ?? error
                    }
                }
                try await database.raw("RELEASE batched_write").run()
            }
            try await database.raw("COMMIT").run()
            return (finished, nil)
        } catch {
            try? await database.raw("ROLLBACK").run()
            return (finished, error)
        }
    }

    /// One caller's body and its continuation, with the result type erased so that one batch holds many.
    fileprivate struct QueuedWrite: Sendable {
        let run: @Sendable (any SQLDatabase) async -> FinishedWrite
        let fail: @Sendable (any Error) -> Void

        init<Result: Sendable>(
            _ body: @escaping @Sendable (any SQLDatabase) async throws -> TransactionEnd<Result>,
            answering continuation: CheckedContinuation<Result, any Error>
        ) {
            run = { database in
                do {
                    switch try await body(database) {
                    case .commit(let result):
                        return FinishedWrite(keepsChanges: true, error: nil) { continuation.resume(returning: result) }
                    case .rollback(let result):
                        return FinishedWrite(keepsChanges: false, error: nil) { continuation.resume(returning: result) }
                    }
                } catch {
                    return FinishedWrite(keepsChanges: false, error: error) { continuation.resume(throwing: error) }
                }
            }
            fail = { continuation.resume(throwing: $0) }
        }
    }

    /// How a body ended, and how to answer its caller once the batch is committed.
    fileprivate struct FinishedWrite: Sendable {
        /// The body ended with `.commit`: release its savepoint; otherwise roll back to it first.
        let keepsChanges: Bool
        /// What the body threw, if it did.
        let error: (any Error)?
        /// Resumes the caller with the body's result or error.
        let answer: @Sendable () -> Void
    }
}

private extension SQLiteSession {
    /// ``SQLiteWriter/commit(_:on:)`` on this connection's thread.
    func commit(
        _ batch: [SQLiteWriter.QueuedWrite], counting statistics: DatabaseStatistics
    ) async -> (finished: [SQLiteWriter.FinishedWrite], failure: (any Error)?) {
        do {
            return try await run { await SQLiteWriter.commit(batch, on: $0.counted(in: statistics)) }
        } catch {
            return ([], error)
        }
    }
}
