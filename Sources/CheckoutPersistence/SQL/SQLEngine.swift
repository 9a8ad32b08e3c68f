import SQLKit

/// What differs between SQLite and PostgreSQL: connections, transactions and locks. The SQL is shared.
protocol SQLEngine: Sendable {
    /// Runs `body`, which only reads, on one connection of the pool.
    ///
    /// SQLite runs it on a read-only connection beside the writer, so a write here fails.
    func read<Result: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result

    /// Runs `body`, whose statements may write, outside an explicit transaction: each statement is atomic,
    /// and all are committed when this returns.
    func withConnection<Result: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result

    /// Runs `body` in one transaction, all or nothing, holding SQLite's write lock from its start
    /// (`BEGIN IMMEDIATE`), so that concurrent writers wait for each other instead of failing at commit.
    func transaction<Result: Sendable>(
        _ body: @escaping @Sendable (any SQLDatabase) async throws -> TransactionEnd<Result>
    ) async throws -> Result

    /// Inside a transaction: waits until no other process is migrating the database, and lets this
    /// transaction's statements run up to `limit` where the server bounds them.
    func lockForMigrations(_ database: any SQLDatabase, for limit: Duration) async throws

    /// Throws when the database cannot be reached now.
    func checkReachable() async throws

    /// Throws a ``PersistenceError`` when the server refuses this worker's connection for good (a wrong
    /// password, a database that does not exist), with the server's reason: a pool would retry such a
    /// login until the call limit and report only that no answer came. Any other error may pass.
    func checkLogin() async throws

    /// Whether the schema has PostgreSQL's stored functions (``Migration/postgresStatements``), which
    /// write what takes several statements in one round trip.
    var hasStoredFunctions: Bool { get }

    /// When the caller stops waiting for an unanswered call; nil: no limit.
    var callDeadline: DatabaseDeadline? { get }

    /// Keeps the connections until graceful shutdown or cancellation, then closes them.
    func run() async
}
