import CheckoutDomain

/// Up to `size` read-only connections to one SQLite file, each lent to one caller at a time.
///
/// Every write goes through the one ``SQLiteWriter``; in WAL mode these readers see the last commit and
/// never wait for it. SQLite calls block their thread, so each connection has a thread of its own.
actor SQLiteConnectionPool {
    private let file: SQLiteFile
    private let size: Int
    private var idle: [SQLiteSession] = []
    private var opened = 0
    private var waiters: [CheckedContinuation<SQLiteSession, any Error>] = []
    private var isClosed = false

    init(file: SQLiteFile, size: Int) {
        self.file = file
        self.size = max(1, size)
    }

    /// Lends a connection to `body`; one that saw an error is closed, not reused, in case it is left mid-statement.
    func withConnection<Result: Sendable>(_ body: @Sendable (SQLiteSession) async throws -> Result) async throws -> Result {
        let connection = try await acquire()
        do {
            let result = try await body(connection)
            release(connection)
            return result
        } catch {
            await connection.close()
            opened -= 1
            wakeWaiterWithNewConnection()
            throw error
        }
    }

    func close() async {
        isClosed = true
        for waiter in waiters {
            waiter.resume(
                throwing: RetryableError(code: .databaseUnavailable, context: "using SQLite database \(file.path): the store is closed"))
        }
        waiters = []
        for connection in idle {
            await connection.close()
        }
        idle = []
    }

    private func acquire() async throws -> SQLiteSession {
        guard !isClosed else {
            throw RetryableError(code: .databaseUnavailable, context: "using SQLite database \(file.path): the store is closed")
        }
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

    private func release(_ connection: SQLiteSession) {
        if isClosed {
            Task { await connection.close() }
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

    private func open() async throws -> SQLiteSession {
        try await file.open(readOnly: true)
    }
}
