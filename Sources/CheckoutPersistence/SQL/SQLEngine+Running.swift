extension SQLEngine {
    /// Runs the engine (``run()``) while `body` runs, and closes it when `body` returns or throws.
    func whileRunning<Result: Sendable>(_ body: @escaping @Sendable () async throws -> Result) async throws -> Result {
        try await withThrowingTaskGroup(of: Result?.self) { group in
            group.addTask {
                await run()
                return nil
            }
            defer { group.cancelAll() }
            return try await body()
        }
    }
}
