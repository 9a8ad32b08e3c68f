import CheckoutDomain

/// One in-memory database behind every persistence fake, so that a port call spanning
/// several tables (a cart and its command's outcome) is atomic like a transaction.
actor InMemoryDatabase {
    private(set) var state = DatabaseState()

    /// Runs `body` atomically, or throws the retryable error a lost connection would if `operation` is failing.
    func transaction<Result: Sendable>(
        _ operation: DatabaseOperation,
        _ body: @Sendable (inout DatabaseState) throws -> Result
    ) throws -> Result {
        guard !state.failing.contains(operation) else {
            throw RetryableError(code: .databaseUnavailable, context: "\(operation)", underlying: ConnectionLost())
        }
        return try body(&state)
    }

    /// Test set-up and inspection, outside any failure injection.
    func update(_ body: @Sendable (inout DatabaseState) -> Void) {
        body(&state)
    }
}
