import CheckoutDomain
import NIOCore
import NIOPosix
import PostgresNIO
import _ConnectionPoolModule

/// Sorts what a database client threw into what may pass (retried) and what will not.
enum DatabaseFault {
    /// PostgreSQL states that end by themselves: serialization failure, deadlock, lock timeout, a statement
    /// cancelled at `statement_timeout`, a server shutting down or starting. Classes 08 (connection) and 53
    /// (insufficient resources: disk full, out of memory, too many connections) are transient as a whole.
    private static let transientSQLStates: Set<String> = ["40001", "40P01", "55P03", "57014", "57P01", "57P02", "57P03"]

    /// A `RetryableError` (`databaseUnavailable`) for a transient fault, a ``PersistenceError`` otherwise;
    /// errors that are one of the two already pass unchanged.
    static func classify(_ error: any Error, context: String) -> any Error {
        if error is RetryableError || error is PersistenceError {
            return error
        }
        if isTransient(error) {
            return RetryableError(code: .databaseUnavailable, context: context, underlying: error)
        }
        return PersistenceError(code: .databaseFailure, context: context, underlying: error)
    }

    /// Whether `error` is a unique index refusing a row: on PostgreSQL the index named `index`; on SQLite,
    /// which names columns instead, the one over `table`'s `column` alone (a primary key's conflict has
    /// a code of its own, SQLITE_CONSTRAINT_PRIMARYKEY).
    static func isUniqueViolation(_ error: any Error, index: String, table: String, column: String) -> Bool {
        switch error {
        case let error as PSQLError:
            error.serverInfo?[.sqlState] == "23505" && error.serverInfo?[.constraintName] == index
        case let error as SQLiteFailure:
            error.code == SQLiteFailure.uniqueConstraint && error.message.hasSuffix(": \(table).\(column)")
        default:
            false
        }
    }

    /// Connection refused, lost or timed out; serialization failures and deadlocks; SQLite busy or locked.
    static func isTransient(_ error: any Error) -> Bool {
        switch error {
        case let error as PSQLError:
            switch error.code {
            case .server:
                guard let state = error.serverInfo?[.sqlState] else { return false }
                return transientSQLStates.contains(state) || state.hasPrefix("08") || state.hasPrefix("53")
            case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .queryCancelled:
                return true
            default:
                return false
            }
        case let error as SQLiteFailure:
            return error.isTransient
        case let error as ConnectionPoolError:
            return error == .connectionCreationCircuitBreakerTripped
        case is IOError, is ChannelError, is NIOConnectionError:
            return true
        default:
            return false
        }
    }
}
