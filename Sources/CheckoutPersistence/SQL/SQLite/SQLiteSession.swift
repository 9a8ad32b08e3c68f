import Logging
import SQLKit

/// The writer's connection to the store's SQLite file and the thread it runs on: work handed to
/// ``run(_:)`` runs on that thread, every statement a direct call into the library. The group commit's
/// fsync blocks that thread, not its callers'.
final class SQLiteSession: Sendable {
    private let thread: SQLiteThread
    private let handle: SQLiteHandle
    private let database: SQLiteDatabase

    private init(thread: SQLiteThread, handle: SQLiteHandle, logger: Logger) {
        self.thread = thread
        self.handle = handle
        database = SQLiteDatabase(handle: handle, logger: logger)
    }

    /// Opens the file on a new thread and runs `setUp` (the pragmas) there.
    static func open(path: String, logger: Logger, statistics: DatabaseStatistics, setUp: [String]) async throws -> SQLiteSession {
        let thread = SQLiteThread(name: "sqlite writer")
        do {
            return try await withTaskExecutorPreference(thread) {
                let handle = try SQLiteHandle(path: path, statistics: statistics, setUp: setUp)
                return SQLiteSession(thread: thread, handle: handle, logger: logger)
            }
        } catch {
            thread.stop()
            throw error
        }
    }

    /// Runs `body` on the connection's thread; the tasks it awaits inline stay there too.
    func run<Result: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result {
        try await withTaskExecutorPreference(thread) { [database] in try await body(database) }
    }

    /// Closes the connection on its thread, then lets the thread end.
    func close() async {
        await withTaskExecutorPreference(thread) { [handle] in handle.close() }
        thread.stop()
    }
}
