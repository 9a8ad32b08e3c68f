extension SQLExecutor {
    /// How many batches of one kind of call a worker runs at once, and how many calls a batch takes
    /// at most. Two batches keep one connection reading while the other writes; 64 is past the
    /// prefetch's default, so that a burst of deliveries shares few statements.
    static let concurrentBatches = 2
    static let maximumBatch = 64

    /// On PostgreSQL, where a statement is a round trip, the calls that arrive while others are in the
    /// database, run together by `run` (``SQLBatcher``) on the connections' event loop; nil on SQLite,
    /// whose writer batches its own way.
    func batcher<Item: Sendable, Answer: Sendable>(
        _ run: @escaping @Sendable ([Item]) async -> [Result<Answer, any Error>]
    ) -> SQLBatcher<Item, Answer>? {
        guard engine.hasStoredFunctions else { return nil }
        return SQLBatcher(
            concurrentBatches: Self.concurrentBatches, maximumBatch: Self.maximumBatch, executor: engine.callDeadline?.executor, run: run)
    }
}
