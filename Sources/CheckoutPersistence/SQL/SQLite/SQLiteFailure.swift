/// An error the SQLite library returned, with its extended result code and message.
struct SQLiteFailure: Error, CustomStringConvertible {
    /// SQLITE_MISUSE: what this layer reports for a value it cannot bind or decode.
    static let misuse: Int32 = 21
    /// SQLITE_CONSTRAINT_UNIQUE: a unique index, not the primary key, refused a row.
    static let uniqueConstraint: Int32 = 2067
    private static let busy: Int32 = 5
    private static let locked: Int32 = 6

    /// The extended result code (`sqlite3_extended_errcode`).
    let code: Int32
    let message: String
    /// The statement that failed, if one did (not its parameters: they may be customers' data).
    let statement: String?

    /// Busy or locked: another connection holds the lock; it passes once that one commits.
    var isTransient: Bool {
        [Self.busy, Self.locked].contains(code & 0xff)
    }

    var description: String {
        "SQLite error \(code): \(message)" + (statement.map { " in \($0)" } ?? "")
    }
}
