import Logging
import NIOCore
import NIOPosix
import SQLiteNIO

/// Up to `size` connections to one SQLite file, each lent to one caller at a time.
///
/// SQLite calls block their thread (a busy writer waits in SQLite's busy handler), so the pool has
/// its own thread per connection: a waiting writer can never starve the one holding the lock.
actor SQLiteConnectionPool {
    private let path: String
    private let size: Int
    private let logger: Logger
    private let threadPool: NIOThreadPool
    private var idle: [SQLiteConnection] = []
    private var opened = 0
    private var waiters: [CheckedContinuation<SQLiteConnection, any Error>] = []
    private var isClosed = false

    init(path: String, size: Int, logger: Logger) {
        self.path = path
        self.size = max(1, size)
        self.logger = logger
        threadPool = NIOThreadPool(numberOfThreads: max(1, size))
        threadPool.start()
    }

    /// Lends a connection to `body`; one that saw an error is closed, not reused, since it may be mid-transaction.
    func withConnection<Result: Sendable>(_ body: @Sendable (SQLiteConnection) async throws -> Result) async throws -> Result {
        let connection = try await acquire()
        do {
            let result = try await body(connection)
            release(connection)
            return result
        } catch {
            try? await connection.close()
            opened -= 1
            wakeWaiterWithNewConnection()
            throw error
        }
    }

    func close() async {
        isClosed = true
        for waiter in waiters {
            waiter.resume(throwing: PersistenceError(code: .storeClosed, context: "using SQLite database \(path)"))
        }
        waiters = []
        for connection in idle {
            try? await connection.close()
        }
        idle = []
        try? await threadPool.shutdownGracefully()
    }

    private func acquire() async throws -> SQLiteConnection {
        guard !isClosed else { throw PersistenceError(code: .storeClosed, context: "using SQLite database \(path)") }
        if let connection = idle.popLast() {
            return connection
        }
        guard opened < size else {
            return try await withCheckedThrowingContinuation { waiters.append($0) }
        }
        opened += 1
        do {
            return try await open()
        } catch {
            opened -= 1
            throw error
        }
    }

    private func release(_ connection: SQLiteConnection) {
        if isClosed {
            Task { try? await connection.close() }
        } else if waiters.isEmpty {
            idle.append(connection)
        } else {
            waiters.removeFirst().resume(returning: connection)
        }
    }

    /// A connection was dropped: a waiter gets a fresh one instead of waiting for a release that will not come.
    private func wakeWaiterWithNewConnection() {
        guard !waiters.isEmpty, opened < size else { return }
        let waiter = waiters.removeFirst()
        opened += 1
        Task {
            do {
                waiter.resume(returning: try await open())
            } catch {
                opened -= 1
                waiter.resume(throwing: error)
            }
        }
    }

    /// WAL so readers never wait for the writer; a busy timeout so writers of other connections and
    /// processes wait their turn; `synchronous = FULL` so a committed order survives a power cut.
    private func open() async throws -> SQLiteConnection {
        let connection = try await SQLiteConnection.open(
            storage: .file(path: path),
            threadPool: threadPool,
            logger: logger,
            on: MultiThreadedEventLoopGroup.singleton.any()
        )
        do {
            for pragma in ["PRAGMA busy_timeout = 5000", "PRAGMA journal_mode = WAL", "PRAGMA synchronous = FULL", "PRAGMA foreign_keys = ON"] {
                _ = try await connection.query(pragma)
            }
        } catch {
            try? await connection.close()
            throw error
        }
        return connection
    }
}
