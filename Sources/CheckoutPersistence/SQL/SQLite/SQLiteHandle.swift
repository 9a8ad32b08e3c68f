import VaporCSQLite

/// One connection to a SQLite file through the C library, and the only code that calls it: the SQLite
/// that sqlite-nio builds in, whose functions are prefixed `sqlite_nio_` so that it never meets another
/// copy of SQLite in the process.
///
/// Statements are prepared once per SQL text and kept for the connection's life, so a statement the
/// store runs thousands of times is parsed once. Their bindings are not cleared after a run: every run
/// binds every parameter again, and clearing them makes SQLite compile again, on the next run, every
/// statement whose plan looked at a bound value (in the SQLite 3.54 that sqlite-nio builds in, any
/// `column = ?`). Not thread-safe: one caller at a time uses it, the writer on its ``SQLiteThread`` and
/// a reader on its borrower's thread.
final class SQLiteHandle: @unchecked Sendable {
    let path: String
    private let statistics: DatabaseStatistics
    private var connection: OpaquePointer?
    private var prepared: [String: PreparedStatement] = [:]

    /// `SQLITE_TRANSIENT`, a macro Swift cannot import: SQLite copies bound text and blobs before the call returns.
    private static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    private struct PreparedStatement {
        let pointer: OpaquePointer
        let columns: [String]
    }

    /// Opens (and creates) the file; `sqlite3_open_v2` runs with no mutex of its own, since one caller at a time uses it.
    /// - Parameter statistics: Where the statements SQLite compiles again are counted.
    init(path: String, statistics: DatabaseStatistics) throws(SQLiteFailure) {
        self.path = path
        self.statistics = statistics
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let status = sqlite_nio_sqlite3_open_v2(path, &connection, flags, nil)
        guard status == SQLITE_OK else {
            let failure = SQLiteFailure(
                code: status, message: connection.map { String(cString: sqlite_nio_sqlite3_errmsg($0)) } ?? "out of memory", statement: nil)
            sqlite_nio_sqlite3_close_v2(connection)
            connection = nil
            throw failure
        }
        sqlite_nio_sqlite3_extended_result_codes(connection, 1)
    }

    /// Opens the file and runs `setUp`, its pragmas; a connection a pragma failed on is closed again.
    convenience init(path: String, statistics: DatabaseStatistics, setUp: [String]) throws(SQLiteFailure) {
        try self.init(path: path, statistics: statistics)
        for statement in setUp {
            try execute(statement, binds: []) { _ in }
        }
    }

    deinit {
        close()
    }

    /// Runs `sql` with `binds` and hands each row to `onRow`.
    func execute(_ sql: String, binds: [SQLiteValue], onRow: (SQLiteRow) -> Void) throws(SQLiteFailure) {
        let statement = try prepare(sql)
        defer {
            sqlite_nio_sqlite3_reset(statement.pointer)
            let recompilations = sqlite_nio_sqlite3_stmt_status(statement.pointer, SQLITE_STMTSTATUS_REPREPARE, 1)
            if recompilations > 0 { statistics.countRecompilations(Int(recompilations)) }
        }
        for (index, value) in binds.enumerated() {
            try check(bind(value, at: Int32(index + 1), in: statement.pointer), sql)
        }
        while true {
            switch sqlite_nio_sqlite3_step(statement.pointer) {
            case SQLITE_ROW:
                onRow(
                    SQLiteRow(
                        columns: statement.columns,
                        values: (0..<Int32(statement.columns.count)).map { column(at: $0, of: statement.pointer) }))
            case SQLITE_DONE:
                return
            case let status:
                throw failure(status, sql)
            }
        }
    }

    /// Finalizes every statement and closes the connection; nothing runs on it afterwards.
    func close() {
        for statement in prepared.values {
            sqlite_nio_sqlite3_finalize(statement.pointer)
        }
        prepared = [:]
        sqlite_nio_sqlite3_close_v2(connection)
        connection = nil
    }

    private func prepare(_ sql: String) throws(SQLiteFailure) -> PreparedStatement {
        if let statement = prepared[sql] { return statement }
        guard let connection else {
            throw SQLiteFailure(code: SQLiteFailure.misuse, message: "the connection to \(path) is closed", statement: sql)
        }
        var pointer: OpaquePointer?
        try check(sqlite_nio_sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &pointer, nil), sql)
        guard let pointer else { throw SQLiteFailure(code: SQLiteFailure.misuse, message: "the statement is empty", statement: sql) }
        let columns = (0..<sqlite_nio_sqlite3_column_count(pointer)).map { String(cString: sqlite_nio_sqlite3_column_name(pointer, $0)) }
        let statement = PreparedStatement(pointer: pointer, columns: columns)
        prepared[sql] = statement
        return statement
    }

    private func bind(_ value: SQLiteValue, at index: Int32, in statement: OpaquePointer) -> Int32 {
        switch value {
        case .null: sqlite_nio_sqlite3_bind_null(statement, index)
        case .integer(let integer): sqlite_nio_sqlite3_bind_int64(statement, index, integer)
        case .real(let real): sqlite_nio_sqlite3_bind_double(statement, index, real)
        // With its length: at -1 SQLite reads up to the first NUL, and a text holding one was stored cut.
        case .text(let text): sqlite_nio_sqlite3_bind_text(statement, index, text, Int32(text.utf8.count), Self.transient)
        case .blob(let bytes):
            bytes.withUnsafeBytes { sqlite_nio_sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), Self.transient) }
        }
    }

    private func column(at index: Int32, of statement: OpaquePointer) -> SQLiteValue {
        switch sqlite_nio_sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER:
            return .integer(sqlite_nio_sqlite3_column_int64(statement, index))
        case SQLITE_FLOAT:
            return .real(sqlite_nio_sqlite3_column_double(statement, index))
        case SQLITE_TEXT:
            guard let text = sqlite_nio_sqlite3_column_text(statement, index) else { return .null }
            let count = Int(sqlite_nio_sqlite3_column_bytes(statement, index))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite_nio_sqlite3_column_bytes(statement, index))
            guard count > 0, let bytes = sqlite_nio_sqlite3_column_blob(statement, index) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default:
            return .null
        }
    }

    private func check(_ status: Int32, _ sql: String) throws(SQLiteFailure) {
        guard status == SQLITE_OK else { throw failure(status, sql) }
    }

    private func failure(_ status: Int32, _ sql: String) -> SQLiteFailure {
        let message = connection.map { String(cString: sqlite_nio_sqlite3_errmsg($0)) } ?? "the connection is closed"
        return SQLiteFailure(code: connection.map { sqlite_nio_sqlite3_extended_errcode($0) } ?? status, message: message, statement: sql)
    }
}
