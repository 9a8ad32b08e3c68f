import Synchronization

/// Gathers the calls that arrive while earlier ones are in the database, and runs them together.
///
/// A call that finds fewer than `concurrentBatches` batches running starts one at once, alone: a
/// worker that is not busy waits for nothing. Calls that find them all running wait, and the first
/// batch to finish takes up to `maximumBatch` of them as its next. So the busier the worker, the more
/// commands share a statement, and the fewer statements its database runs per command.
///
/// Batches run on a task of their own: a caller that is cancelled still gets its answer, which the
/// call's deadline bounds (``SQLExecutor``). That task prefers `executor` when given: the event loop
/// of the database's connections, where the batch's statements run anyway, rather than Swift's
/// global executor, whose thread would wake for each statement's answer only to pass it on.
final class SQLBatcher<Item: Sendable, Answer: Sendable>: Sendable {
    private typealias Waiter = (item: Item, answer: CheckedContinuation<Answer, any Error>)

    /// Calls not yet in a batch, and how many batches run.
    private struct State {
        var waiting: [Waiter] = []
        var running = 0

        mutating func nextBatch(of maximum: Int) -> [Waiter] {
            let batch = Array(waiting.prefix(maximum))
            waiting.removeFirst(batch.count)
            return batch
        }
    }

    private let state = Mutex(State())
    private let concurrentBatches: Int
    private let maximumBatch: Int
    private let executor: (any TaskExecutor)?
    private let run: @Sendable ([Item]) async -> [Result<Answer, any Error>]

    /// - Parameter run: Runs a batch, answering each of its items in order.
    init(
        concurrentBatches: Int, maximumBatch: Int, executor: (any TaskExecutor)? = nil,
        run: @escaping @Sendable ([Item]) async -> [Result<Answer, any Error>]
    ) {
        self.concurrentBatches = max(1, concurrentBatches)
        self.maximumBatch = max(1, maximumBatch)
        self.executor = executor
        self.run = run
    }

    /// Calls waiting for a batch to take them.
    var waitingCount: Int { state.withLock { $0.waiting.count } }

    func submit(_ item: Item) async throws -> Answer {
        try await withCheckedThrowingContinuation { answer in
            let batch = state.withLock { state -> [Waiter]? in
                state.waiting.append((item, answer))
                guard state.running < concurrentBatches else { return nil }
                state.running += 1
                return state.nextBatch(of: maximumBatch)
            }
            if let batch {
                // Detached: a batch is no one caller's, and must not carry the first one's trace.
                Task.detached(executorPreference: executor) { await self.drain(from: batch) }
            }
        }
    }

    /// Runs `batch`, then whatever waits, until nothing does.
    private func drain(from batch: [Waiter]) async {
        var batch = batch
        while !batch.isEmpty {
            let answers = await run(batch.map(\.item))
            for (index, waiter) in batch.enumerated() {
                waiter.answer.resume(
                    with: index < answers.count
                        ? answers[index]
                        : .failure(
                            PersistenceError(code: .databaseFailure, context: "a batch of database calls ended without answering this one"))
                )
            }
            batch = state.withLock { state in
                guard !state.waiting.isEmpty else {
                    state.running -= 1
                    return []
                }
                return state.nextBatch(of: maximumBatch)
            }
        }
    }
}
