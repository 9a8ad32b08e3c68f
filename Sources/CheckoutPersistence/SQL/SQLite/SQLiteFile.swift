import Logging

/// The SQLite file of a store, and how every connection to it is set up.
struct SQLiteFile: Sendable {
    let path: String
    let logger: Logger
    let statistics: DatabaseStatistics

    /// WAL so readers never wait for the writer; a busy timeout so the writer waits for writers of other
    /// processes; `synchronous = FULL` so a committed order survives a power cut. A reader is also
    /// `query_only`, so a write sent to it by mistake fails instead of bypassing the writer's queue.
    func open(readOnly: Bool) async throws -> SQLiteSession {
        let pragmas = ["PRAGMA busy_timeout = 5000", "PRAGMA journal_mode = WAL", "PRAGMA synchronous = FULL", "PRAGMA foreign_keys = ON"]
        return try await SQLiteSession.open(
            path: path,
            name: readOnly ? "sqlite reader" : "sqlite writer",
            logger: logger,
            statistics: statistics,
            setUp: pragmas + (readOnly ? ["PRAGMA query_only = ON"] : [])
        )
    }
}
