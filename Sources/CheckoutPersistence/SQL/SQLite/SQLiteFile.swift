import Logging

/// The SQLite file of a store, and how every connection to it is set up.
///
/// The writer puts the file in WAL, so readers never wait for it; `synchronous = FULL` so a
/// committed order survives a power cut. A reader is `query_only`, so a write sent to it by mistake
/// fails instead of bypassing the writer's queue, and leaves the journal mode alone: switching a new
/// file to WAL is a write transaction, which readers of several workers starting on one new file
/// would queue for behind each other's migrations, past their busy timeout. WAL is kept in the file,
/// and a reader uses it from its next read on. Every connection waits up to 5 s for a lock.
struct SQLiteFile: Sendable {
    let path: String
    let logger: Logger
    let statistics: DatabaseStatistics

    /// The one writer, on a thread of its own (``SQLiteWriter``).
    func openWriter() async throws -> SQLiteSession {
        try await SQLiteSession.open(
            path: path, logger: logger, statistics: statistics,
            setUp: ["PRAGMA busy_timeout = 5000", "PRAGMA journal_mode = WAL", "PRAGMA synchronous = FULL", "PRAGMA foreign_keys = ON"])
    }

    /// Opens on the caller's thread, where the reader then reads.
    func openReader() throws -> SQLiteReader {
        try SQLiteReader(
            path: path, logger: logger, statistics: statistics, setUp: ["PRAGMA busy_timeout = 5000", "PRAGMA query_only = ON"])
    }
}
