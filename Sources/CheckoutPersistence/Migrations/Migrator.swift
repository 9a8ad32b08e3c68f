import Foundation
import Logging
import SQLKit

/// Brings a database to the latest schema at start-up, safely when several workers start at once.
struct Migrator {
    let engine: any SQLEngine
    let migrations: [Migration]
    let logger: Logger

    /// How long migrating may take, where a call may take seconds: building an index over a table of
    /// every command handled (``Migrations/oneIDSpace``) can take minutes, and so can waiting for the
    /// worker that builds it.
    static let limit = Duration.seconds(3_600)

    /// In one transaction under the engine's migration lock: the workers that lose the race wait, then find
    /// every migration applied. PostgreSQL's DDL is transactional, so a failed migration leaves nothing behind.
    func migrate() async throws {
        let applied = try await SQLExecutor(engine: engine).write("migrating the database", limit: Self.limit) {
            [engine, migrations] database in
            try await engine.lockForMigrations(database, for: Self.limit)
            try await database.raw(
                """
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version BIGINT PRIMARY KEY,
                    name TEXT NOT NULL,
                    applied_at DOUBLE PRECISION NOT NULL
                )
                """
            ).run()
            let done = try await database.raw("SELECT version FROM schema_migrations").all()
                .map { try StoredRow($0, of: "schema_migrations").value("version", as: Int.self) }
            var applied: [Migration] = []
            for migration in migrations where !done.contains(migration.version) {
                let statements =
                    database.isPostgreSQL
                    ? migration.postgresLocks + migration.statements + migration.postgresStatements : migration.statements
                for statement in statements {
                    try await database.raw(SQLQueryString(statement)).run()
                }
                try await database.raw(
                    """
                    INSERT INTO schema_migrations (version, name, applied_at)
                    VALUES (\(bind: migration.version), \(bind: migration.name), \(bind: Date().timeIntervalSince1970))
                    """
                ).run()
                applied.append(migration)
            }
            return .commit(applied.map { "\($0.version) \($0.name)" })
        }
        for migration in applied {
            logger.info("applied database migration", metadata: ["db.migration": "\(migration)"])
        }
    }
}
