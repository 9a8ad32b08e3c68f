import CheckoutDomain

/// Up to `size` read-only connections to one SQLite file, each lent to one caller at a time.
///
/// Every write goes through the one ``SQLiteWriter``; in WAL mode these readers see the last commit and
/// never wait for it. A reader reads on its borrower's thread (``SQLiteReader``).
actor SQLiteConnectionPool {
    private let file: SQLiteFile
    private let size: Int
    private var idle: [SQLiteReader] = []
    private var opened = 0
    private var waiters: [CheckedContinuation<SQLiteReader, any Error>] = []
    private var isClosed = false

    init(file: SQLiteFile, size: Int) {
        self.file = file
        self.size = max(1, size)
    }

    /// Lends a connection to `body`; one that saw an error is closed, not reused, in case it is left mid-statement.
    func withConnection<Result: Sendable>(_ body: @Sendable (SQLiteReader) async throws -> Result) async throws -> Result {
        let connection = try await acquire()
        do {
            let result = try await body(connection)
            release(connection)
            return result
        } catch {
            connection.close()
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
            connection.close()
        }
        idle = []
    }

    private func acquire() async throws -> SQLiteReader {
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
            return try open()
        } catch {
            opened -= 1
            throw error
        }
    }

    private func release(_ connection: SQLiteReader) {
        if isClosed {
            connection.close()
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
        do {
            waiter.resume(returning: try open())
        } catch {
            opened -= 1
            waiter.resume(throwing: error)
        }
    }

    private func open() throws -> SQLiteReader {
        try file.openReader()
    }
}
