/// How a transaction body ends: keep its changes, or undo them and still answer.
///
/// A guarded write that finds the data changed (a version conflict, short stock) is an answer,
/// not an error, but what the transaction wrote before it must not stay.
enum TransactionEnd<Result: Sendable>: Sendable {
    case commit(Result)
    case rollback(Result)
}
