import Logging
import SQLKit

/// A read-only connection to the store's SQLite file, which reads on its caller's thread.
///
/// A reader of a WAL file never waits for the writer, and the pages it reads are normally in memory:
/// a read is tens of microseconds of work, less than handing it to a thread of its own and back, which
/// cost a SQLite SyncCart about 14 % of the worker's CPU (BENCHMARKS.md, "Reads on the caller's
/// thread"). What that gives up: a read of pages that are not in memory blocks its caller for the
/// disk's latency. Used by one caller at a time (``SQLiteConnectionPool``), on whichever thread that
/// caller runs.
final class SQLiteReader: Sendable {
    private let handle: SQLiteHandle
    private let database: SQLiteDatabase

    /// Opens the file and runs `setUp` (the pragmas).
    init(path: String, logger: Logger, statistics: DatabaseStatistics, setUp: [String]) throws {
        handle = try SQLiteHandle(path: path, statistics: statistics, setUp: setUp)
        database = SQLiteDatabase(handle: handle, logger: logger)
    }

    func run<Result: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result {
        try await body(database)
    }

    func close() {
        handle.close()
    }
}
