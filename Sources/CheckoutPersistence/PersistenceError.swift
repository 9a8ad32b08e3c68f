/// A database failure that retrying will not mend: the worker rejects or dead-letters instead.
///
/// Transient faults (a lost connection, a busy database, a serialization failure) are thrown as
/// the domain's `RetryableError` instead.
public struct PersistenceError: Error, CustomStringConvertible, CustomDebugStringConvertible {
    /// What failed.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let description: String

        /// The database refused a statement for a reason that will not pass (a constraint, a missing table, a bad type).
        public static let databaseFailure = Code(description: "database-failure")
        /// A stored value cannot be read back as the domain's type.
        public static let unreadableRow = Code(description: "unreadable-row")
        /// An order with this id is stored already; order ids are command ids, so this is a defect.
        public static let duplicateOrder = Code(description: "duplicate-order")
    }

    public let code: Code
    /// What was being done, e.g. `placing order o-1`; safe to log.
    public let context: String
    /// The error of the database's client, with the server's own text, for `debugDescription`.
    public let underlying: (any Error)?

    public init(code: Code, context: String, underlying: (any Error)? = nil) {
        self.code = code
        self.context = context
        self.underlying = underlying
    }

    public var description: String { "\(code): \(context)" }

    public var debugDescription: String {
        guard let underlying else { return description }
        return "\(description) (\(String(reflecting: underlying)))"
    }
}
