import CheckoutDomain
import Logging
import SQLKit
import Synchronization

/// The one connection that writes to a SQLite file, committing the writes of many callers at once.
///
/// SQLite has one write lock per file, and `synchronous = FULL` makes each commit an fsync. So writers
/// queue here, in Swift, instead of sleeping in SQLite's busy handler: the writer takes what is queued
/// (up to `batchLimit`), runs each write in a savepoint of one `BEGIN IMMEDIATE` transaction, commits
/// once, and only then answers their callers. While it commits, the next batch queues up (group commit);
/// a lone write still costs one commit and waits for nothing else.
///
/// A disk that stops answering holds the batch inside SQLite's fsync, which nothing interrupts. So a
/// cancelled caller (the shutdown's grace period is over) stops waiting at once, as it would for
/// PostgreSQL (``DatabaseDeadline``), and the worker can hand its command back and exit: a write still
/// queued is dropped, one whose batch has not reached it is skipped, and one already running (or run,
/// and not yet answered) may yet commit, as if the worker had stopped right after the commit.
actor SQLiteWriter {
    private let file: SQLiteFile
    private let statistics: DatabaseStatistics
    private let batchLimit: Int
    /// How long a batch may take before it counts as held by a disk that stopped answering.
    let stallLimit: Duration
    private var connection: SQLiteSession?
    private var queue: [QueuedWrite] = []
    /// The writes of the batch being written; empty between batches.
    private var batchInProgress: [QueuedWrite] = []
    private var writing: Task<Void, Never>?
    /// The id of the last write queued.
    private var lastWriteID = 0
    /// When the batch being written began; nil between batches.
    private var batchStarted: ContinuousClock.Instant?
    private var isClosed = false

    init(file: SQLiteFile, statistics: DatabaseStatistics, batchLimit: Int = 64, stallLimit: Duration = .seconds(10)) {
        self.file = file
        self.statistics = statistics
        self.batchLimit = max(1, batchLimit)
        self.stallLimit = stallLimit
    }

    /// Runs `body` in the next batch; returns (or throws) once that batch is committed.
    ///
    /// A body that throws or ends with `.rollback` undoes only its own changes. If the transaction
    /// itself fails (its `COMMIT`, or an error after which SQLite rolled it back), every caller in the
    /// batch gets that error and none of their changes stay. A caller cancelled meanwhile gets a
    /// retryable `database-unavailable` at once.
    func write<Result: Sendable>(
        _ body: @escaping @Sendable (any SQLDatabase) async throws -> TransactionEnd<Result>
    ) async throws -> Result {
        guard !isClosed else { throw Self.closed(file) }
        lastWriteID += 1
        let id = lastWriteID
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                queue.append(QueuedWrite(id: id, body, answering: continuation))
                if writing == nil {
                    // Detached: not on the executor the caller prefers (a worker's handlers share the broker
                    // connection's thread), where each of the writer's statements would wait behind every handler.
                    writing = Task.detached { await self.writeQueued() }
                }
            }
        } onCancel: {
            // The task runs on the actor, so after the write is queued: this method does not suspend before that.
            Task { await self.abandon(id) }
        }
    }

    /// How many writes wait for the next batch; tests wait on it to know a batch is complete before it starts.
    var queuedWrites: Int { queue.count }

    /// How long the batch being written has taken so far, from opening the connection if it must to its
    /// commit; zero between batches. A batch takes milliseconds; a disk that stops answering holds it,
    /// and every write queues behind it.
    var stalledFor: Duration { batchStarted.map { .now - $0 } ?? .zero }

    /// Fails what is still queued, waits for the batch being written, then closes the connection.
    ///
    /// A batch that has been committing longer than `stallLimit` is a disk that stopped answering: the
    /// writer then stops waiting for it (at once, or once it reaches the limit) and leaves the
    /// connection open to it, so that the worker can exit.
    func close() async {
        isClosed = true
        let unwritten = queue
        queue = []
        for write in unwritten {
            write.fail(Self.closed(file))
        }
        if let writing {
            let waiter = Waiter<Void>()
            let patience = max(.zero, stallLimit - stalledFor)
            let timer = Task {
                try? await Task.sleep(for: patience)
                waiter.resume(with: .failure(CancellationError()))
            }
            try? await withCheckedThrowingContinuation { continuation in
                waiter.wait(continuation)
                Task {
                    await writing.value
                    waiter.resume(with: .success(()))
                }
            }
            timer.cancel()
        }
        guard writing == nil else {
            file.logger.error(
                """
                stopping without closing SQLite database \(file.path): a batch of writes has been committing for \
                \(stalledFor.components.seconds) s
                """)
            return
        }
        await connection?.close()
        connection = nil
    }

    /// A write after the store closed (the worker is stopping): retryable, since another worker, or this
    /// one restarted, can do it.
    private static func closed(_ file: SQLiteFile) -> RetryableError {
        RetryableError(code: .databaseUnavailable, context: "writing to SQLite database \(file.path): the store is closed")
    }

    /// Answers a cancelled caller now: its write is dropped if still queued, skipped if its batch has not
    /// reached it, and left to commit or not if it is running.
    private func abandon(_ id: Int) {
        let abandoned = RetryableError(
            code: .databaseUnavailable, context: "writing to SQLite database \(file.path): cancelled while waiting for the database")
        if let index = queue.firstIndex(where: { $0.id == id }) {
            queue.remove(at: index).fail(abandoned)
        } else if let write = batchInProgress.first(where: { $0.id == id }) {
            write.fail(abandoned)
        }
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
        batchInProgress = batch
        defer {
            batchStarted = nil
            batchInProgress = []
        }
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
            for write in batch where write.isAwaited {
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
        let id: Int
        let run: @Sendable (any SQLDatabase) async -> FinishedWrite
        let fail: @Sendable (any Error) -> Void
        private let waiting: @Sendable () -> Bool

        /// Whether the caller still waits: neither answered nor given up on (``SQLiteWriter/abandon(_:)``).
        var isAwaited: Bool { waiting() }

        init<Result: Sendable>(
            id: Int,
            _ body: @escaping @Sendable (any SQLDatabase) async throws -> TransactionEnd<Result>,
            answering continuation: CheckedContinuation<Result, any Error>
        ) {
            let waiter = Waiter<Result>()
            waiter.wait(continuation)
            self.id = id
            run = { database in
                do {
                    switch try await body(database) {
                    case .commit(let result):
                        return FinishedWrite(keepsChanges: true, error: nil) { waiter.resume(with: .success(result)) }
                    case .rollback(let result):
                        return FinishedWrite(keepsChanges: false, error: nil) { waiter.resume(with: .success(result)) }
                    }
                } catch {
                    return FinishedWrite(keepsChanges: false, error: error) { waiter.resume(with: .failure(error)) }
                }
            }
            fail = { waiter.resume(with: .failure($0)) }
            waiting = { waiter.isWaiting }
        }
    }

    /// A continuation resumed once, by whoever comes first: the batch's answer, the caller's
    /// cancellation, or a closer's timer, which may come before the continuation does.
    fileprivate final class Waiter<Result: Sendable>: Sendable {
        private struct State {
            var continuation: CheckedContinuation<Result, any Error>?
            /// What came before the continuation did.
            var early: Swift.Result<Result, any Error>?
            var isFinished = false
        }

        private let state = Mutex(State())

        func wait(_ continuation: CheckedContinuation<Result, any Error>) {
            let early = state.withLock { state -> Swift.Result<Result, any Error>? in
                guard state.isFinished else {
                    state.continuation = continuation
                    return nil
                }
                defer { state.early = nil }
                return state.early
            }
            if let early { continuation.resume(with: early) }
        }

        /// Whether nobody has answered yet.
        var isWaiting: Bool { state.withLock { !$0.isFinished } }

        func resume(with result: Swift.Result<Result, any Error>) {
            let continuation = state.withLock { state -> CheckedContinuation<Result, any Error>? in
                guard !state.isFinished else { return nil }
                state.isFinished = true
                guard let continuation = state.continuation else {
                    state.early = result
                    return nil
                }
                state.continuation = nil
                return continuation
            }
            continuation?.resume(with: result)
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
