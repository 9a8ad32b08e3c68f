import PostgresNIO
import Synchronization
import Testing

@testable import CheckoutPersistence

/// How ``SQLBatcher`` forms batches, without a database: a call that finds a free slot runs alone at
/// once, calls that find none wait and share the next batch, and every caller gets its own answer.
@Suite(.timeLimit(.minutes(1))) struct SQLBatcherTests {
    @Test func aCallThatFindsABatchSlotFreeRunsAloneAtOnce() async throws {
        let database = HeldDatabase()
        let batcher = SQLBatcher<Int, Int>(concurrentBatches: 1, maximumBatch: 8) { await database.run($0) }
        database.release()

        #expect(try await batcher.submit(7) == 70)
        #expect(database.batches == [[7]])
    }

    /// On PostgreSQL the batches run on the connections' event loop, whose thread would otherwise wake
    /// another only to hand it each statement's answer.
    @Test func aBatchRunsOnTheExecutorItWasGiven() async throws {
        let loop = EventLoopTaskExecutor(PostgresClient.defaultEventLoopGroup.next())
        let batcher = SQLBatcher<Int, Bool>(concurrentBatches: 1, maximumBatch: 8, executor: loop) { items in
            items.map { _ in .success(loop.loop.inEventLoop) }
        }

        #expect(try await batcher.submit(1))
    }

    @Test func callsThatArriveWhileABatchRunsShareTheNextInTheirOrder() async throws {
        let database = HeldDatabase()
        let batcher = SQLBatcher<Int, Int>(concurrentBatches: 1, maximumBatch: 3) { await database.run($0) }

        try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            group.addTask { (1, try await batcher.submit(1)) }
            await waitUntil { database.batches.count == 1 }
            for item in 2...6 {
                group.addTask { (item, try await batcher.submit(item)) }
                await waitUntil { batcher.waitingCount == item - 1 }
            }
            database.release()
            for try await (item, answer) in group {
                #expect(answer == item * 10, "call \(item) got another call's answer")
            }
        }

        #expect(database.batches == [[1], [2, 3, 4], [5, 6]])
    }

    @Test func asManyBatchesRunAtOnceAsItHasSlots() async throws {
        let database = HeldDatabase()
        let batcher = SQLBatcher<Int, Int>(concurrentBatches: 2, maximumBatch: 8) { await database.run($0) }

        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                let answer = try await batcher.submit(1)
                #expect(answer == 10)
            }
            group.addTask {
                let answer = try await batcher.submit(2)
                #expect(answer == 20)
            }
            await waitUntil { database.batches.count == 2 }
            group.addTask {
                let answer = try await batcher.submit(3)
                #expect(answer == 30)
            }
            await waitUntil { batcher.waitingCount == 1 }
            database.release()
            try await group.waitForAll()
        }

        #expect(Set(database.batches.prefix(2)) == [[1], [2]])
        #expect(database.batches.last == [3])
    }

    @Test func aBatchThatAnswersTooFewFailsTheCallsLeftOver() async throws {
        let batcher = SQLBatcher<Int, Int>(concurrentBatches: 1, maximumBatch: 8) { _ in [] }

        await #expect(throws: PersistenceError.self) { try await batcher.submit(1) }
    }
}

/// A database whose batches wait until ``release()``, answering each item ten times itself, and that
/// keeps the batches it ran.
private final class HeldDatabase: Sendable {
    private struct State {
        var batches: [[Int]] = []
        var isReleased = false
    }

    private let state = Mutex(State())

    var batches: [[Int]] { state.withLock { $0.batches } }

    func release() {
        state.withLock { $0.isReleased = true }
    }

    func run(_ items: [Int]) async -> [Result<Int, any Error>] {
        state.withLock { $0.batches.append(items) }
        while !state.withLock({ $0.isReleased }) {
            try? await Task.sleep(for: .milliseconds(1))
        }
        return items.map { .success($0 * 10) }
    }
}

/// Returns once `condition` holds; the test's time limit bounds the wait.
private func waitUntil(_ condition: () -> Bool) async {
    while !condition() {
        try? await Task.sleep(for: .milliseconds(1))
    }
}
