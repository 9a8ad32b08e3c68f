import CheckoutDomain
import Logging
import SQLKit
import ServiceLifecycle

/// SQLite through one writer connection that commits queued writes in batches (``SQLiteWriter``) and a
/// pool of read-only connections that read beside it (WAL).
struct SQLiteEngine: SQLEngine {
    private let path: String
    private let readers: SQLiteConnectionPool
    private let writer: SQLiteWriter
    private let statistics: DatabaseStatistics

    /// - Parameters:
    ///   - readers: Read-only connections at most, besides the one writer.
    ///   - stallLimit: How long a batch of writes may take before the database is reported unreachable,
    ///     and before closing stops waiting for it.
    init(path: String, readers: Int, logger: Logger, statistics: DatabaseStatistics, stallLimit: Duration = .seconds(10)) {
        let file = SQLiteFile(path: path, logger: logger, statistics: statistics)
        self.path = path
        self.readers = SQLiteConnectionPool(file: file, size: readers)
        writer = SQLiteWriter(file: file, statistics: statistics, stallLimit: stallLimit)
        self.statistics = statistics
    }

    /// A statement is a call on the writer's thread, not a round trip: it needs no functions.
    var hasStoredFunctions: Bool { false }

    /// SQLite ends every call itself: a busy database answers "busy" after its timeout.
    var callDeadline: DatabaseDeadline? { nil }

    func read<Result: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result {
        try await readers.withConnection { [statistics] session in try await session.run { try await body($0.counted(in: statistics)) } }
    }

    /// On the writer, in its next batch: the statements commit together with the batch.
    func withConnection<Result: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result {
        try await writer.write { .commit(try await body($0)) }
    }

    func transaction<Result: Sendable>(
        _ body: @escaping @Sendable (any SQLDatabase) async throws -> TransactionEnd<Result>
    ) async throws -> Result {
        try await writer.write(body)
    }

    /// The writer's `BEGIN IMMEDIATE` already excludes every other writer, in this process and in others.
    func lockForMigrations(_ database: any SQLDatabase, for limit: Duration) async throws {}

    /// Also unreachable while the writer's batch has taken longer than `stallLimit`: a disk that stopped
    /// answering holds every write, and a `SELECT 1` on a reader would not notice.
    func checkReachable() async throws {
        let stalled = await writer.stalledFor
        guard stalled <= writer.stallLimit else {
            throw RetryableError(
                code: .databaseUnavailable,
                context: "writing to SQLite database \(path): a batch of writes has been committing for \(stalled.components.seconds) s")
        }
        try await read { try await $0.raw("SELECT 1").run() }
    }

    /// A file has no login: a path that cannot be opened fails the first statement with SQLite's reason.
    func checkLogin() async throws {}

    /// Connections open on first use; nothing runs in the background but their threads.
    func run() async {
        try? await gracefulShutdown()
        await writer.close()
        await readers.close()
    }
}
