/// How a transaction body ends: keep its changes, or undo them and still answer.
///
/// A guarded write that finds the data changed (a version conflict, short stock) is an answer,
/// not an error, but what the transaction wrote before it must not stay.
enum TransactionEnd<Result: Sendable>: Sendable {
    case commit(Result)
    case rollback(Result)
}

extension TransactionEnd {
    /// The answer either way, dropping whether to undo: only for a body run outside a transaction
    /// whose `.rollback` answers come before it wrote anything, since nothing will undo what it wrote.
    var result: Result {
        switch self {
        case .commit(let result), .rollback(let result): result
        }
    }
}
