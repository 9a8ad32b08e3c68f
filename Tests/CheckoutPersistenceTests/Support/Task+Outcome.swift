extension Task where Failure == any Error {
    /// What the task ended with, or nil if it has not ended within `limit` (it is left running): for a
    /// test of a call that must give up, where waiting for it would hang the test instead of failing it.
    func outcome(within limit: Duration) async -> Result<Success, any Error>? {
        let (outcomes, report) = AsyncStream<Result<Success, any Error>?>.makeStream()
        let waiting = Task<Void, Never> { report.yield(await self.result) }
        let timer = Task<Void, any Error> {
            try await Task<Never, Never>.sleep(for: limit)
            report.yield(nil)
        }
        defer {
            waiting.cancel()
            timer.cancel()
        }
        for await outcome in outcomes { return outcome }
        return nil
    }
}
