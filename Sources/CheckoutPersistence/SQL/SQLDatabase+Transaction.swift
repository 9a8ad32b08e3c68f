import SQLKit

extension SQLDatabase {
    /// Runs `body` between `begin` and `COMMIT`, or `ROLLBACK` when it asks to or throws.
    ///
    /// A failed `COMMIT` is rolled back too, in case the server left the transaction open.
    func inTransaction<Result: Sendable>(
        beginning begin: SQLQueryString,
        _ body: @Sendable (any SQLDatabase) async throws -> TransactionEnd<Result>
    ) async throws -> Result {
        try await raw(begin).run()
        do {
            switch try await body(self) {
            case .commit(let result):
                try await raw("COMMIT").run()
                return result
            case .rollback(let result):
                try await raw("ROLLBACK").run()
                return result
            }
        } catch {
            try? await raw("ROLLBACK").run()
            throw error
        }
    }
}
