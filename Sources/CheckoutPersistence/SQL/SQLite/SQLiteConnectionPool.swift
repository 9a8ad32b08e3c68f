import CheckoutDomain

/// Up to `size` read-only connections to one SQLite file, each lent to one caller at a time.
///
/// Every write goes through the one ``SQLiteWriter``; in WAL mode these readers see the last commit and
/// never wait for it. A reader reads on its borrower's thread (``SQLiteReader``).
///
/// A caller waiting for a connection stops waiting when its task is cancelled: every connection may be
/// held by a read of a disk that stopped answering, and the worker's shutdown cancels its commands.
actor SQLiteConnectionPool {
    private struct Waiter {
        let id: Int
        let continuation: CheckedContinuation<SQLiteReader, any Error>
    }

    private let file: SQLiteFile
    private let size: Int
    private var idle: [SQLiteReader] = []
    private var opened = 0
    private var waiters: [Waiter] = []
    private var lastWaiterID = 0
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

    /// How many callers wait for a connection; tests wait on it to know a caller is queued.
    var waitingCallers: Int { waiters.count }

    func close() async {
        isClosed = true
        for waiter in waiters {
            waiter.continuation.resume(
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
            lastWaiterID += 1
            let id = lastWaiterID
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    waiters.append(Waiter(id: id, continuation: continuation))
                    if Task.isCancelled { abandon(id) }
                }
            } onCancel: {
                // The task runs on the actor, so after the waiter is queued: this method does not suspend before that.
                Task { await self.abandon(id) }
            }
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
            waiters.removeFirst().continuation.resume(returning: connection)
        }
    }

    /// A waiter whose task was cancelled gets a retryable error at once, as ``SQLiteWriter``'s do; one
    /// already given a connection has it.
    private func abandon(_ id: Int) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        waiters.remove(at: index).continuation.resume(
            throwing: RetryableError(
                code: .databaseUnavailable, context: "reading SQLite database \(file.path): cancelled while waiting for a connection"))
    }

    /// A connection was dropped: a waiter gets a fresh one instead of waiting for a release that will not come.
    private func wakeWaiterWithNewConnection() {
        guard !waiters.isEmpty, opened < size else { return }
        let waiter = waiters.removeFirst()
        opened += 1
        do {
            waiter.continuation.resume(returning: try open())
        } catch {
            opened -= 1
            waiter.continuation.resume(throwing: error)
        }
    }

    private func open() throws -> SQLiteReader {
        try file.openReader()
    }
}
