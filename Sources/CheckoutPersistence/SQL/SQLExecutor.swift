import SQLKit

/// Runs the shared SQL on an engine and turns every error into `RetryableError` or ``PersistenceError``.
struct SQLExecutor: Sendable {
    let engine: any SQLEngine

    /// Statements that only read; `context` says what for, in errors.
    func read<Result: Sendable>(
        _ context: String, _ body: @escaping @Sendable (any SQLDatabase) async throws -> Result
    ) async throws -> Result {
        do {
            return try await withinCallTimeout(context) { [engine] in try await engine.read(body) }
        } catch {
            throw DatabaseFault.classify(error, context: context)
        }
    }

    /// Statements that may write, each atomic on its own, outside a transaction; `context` says what for, in errors.
    func autocommit<Result: Sendable>(
        _ context: String, _ body: @escaping @Sendable (any SQLDatabase) async throws -> Result
    ) async throws -> Result {
        do {
            return try await withinCallTimeout(context) { [engine] in try await engine.withConnection(body) }
        } catch {
            throw DatabaseFault.classify(error, context: context)
        }
    }

    /// One transaction, all or nothing; `context` says what for, in errors.
    ///
    /// - Parameter limit: How long it may go unanswered, when not the engine's call limit.
    func write<Result: Sendable>(
        _ context: String,
        limit: Duration? = nil,
        _ body: @escaping @Sendable (any SQLDatabase) async throws -> TransactionEnd<Result>
    ) async throws -> Result {
        do {
            return try await withinCallTimeout(context, limit: limit) { [engine] in try await engine.transaction(body) }
        } catch {
            throw DatabaseFault.classify(error, context: context)
        }
    }

    private func withinCallTimeout<Result: Sendable>(
        _ context: String, limit: Duration? = nil, _ call: @escaping @Sendable () async throws -> Result
    ) async throws -> Result {
        guard var deadline = engine.callDeadline else { return try await call() }
        deadline.limit = limit ?? deadline.limit
        return try await deadline.run(context, call)
    }
}
