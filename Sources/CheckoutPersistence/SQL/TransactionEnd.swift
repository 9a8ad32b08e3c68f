/// How a transaction body ends: keep its changes, or undo them and still answer.
///
/// A guarded write that finds the data changed (a version conflict, short stock) is an answer,
/// not an error, but what the transaction wrote before it must not stay.
enum TransactionEnd<Result: Sendable>: Sendable {
    case commit(Result)
    case rollback(Result)
}

extension TransactionEnd {
    /// The answer either way: for a body run outside a transaction, where each statement is atomic
    /// and there is nothing to undo.
    var result: Result {
        switch self {
        case .commit(let result), .rollback(let result): result
        }
    }
}
