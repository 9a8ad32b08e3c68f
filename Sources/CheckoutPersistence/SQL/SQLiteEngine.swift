import SQLiteKit
import SQLKit

/// SQLite through a pool of connections to one file; writers take the lock at `BEGIN IMMEDIATE`.
struct SQLiteEngine: SQLEngine {
    let pool: SQLiteConnectionPool

    /// SQLite ends every call itself: a busy database answers "busy" after its timeout.
    var callDeadline: DatabaseDeadline? { nil }

    func withConnection<Result: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result {
        try await pool.withConnection { try await body($0.sql()) }
    }

    func transaction<Result: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> TransactionEnd<Result>) async throws -> Result {
        try await pool.withConnection { try await $0.sql().inTransaction(beginning: "BEGIN IMMEDIATE", body) }
    }

    /// `BEGIN IMMEDIATE` already excludes every other writer, in this process and in others.
    func lockForMigrations(_ database: any SQLDatabase) async throws {}

    func checkReachable() async throws {
        try await withConnection { try await $0.raw("SELECT 1").run() }
    }

    func close() async {
        await pool.close()
    }
}
