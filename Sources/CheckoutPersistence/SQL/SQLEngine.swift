import SQLKit

/// What differs between SQLite and PostgreSQL: connections, transactions and locks. The SQL is shared.
protocol SQLEngine: Sendable {
    /// Runs `body` on one connection of the pool, each statement committing on its own.
    func withConnection<Result: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result

    /// Runs `body` in one transaction that holds the write lock from its start on SQLite (`BEGIN IMMEDIATE`),
    /// so concurrent writers wait for each other instead of failing at commit.
    func transaction<Result: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> TransactionEnd<Result>) async throws -> Result

    /// Inside a transaction: waits until no other process is migrating the database.
    func lockForMigrations(_ database: any SQLDatabase) async throws

    /// Throws when the database cannot be reached now.
    func checkReachable() async throws

    /// When the caller stops waiting for an unanswered call; nil: no limit.
    var callDeadline: DatabaseDeadline? { get }

    func close() async
}
