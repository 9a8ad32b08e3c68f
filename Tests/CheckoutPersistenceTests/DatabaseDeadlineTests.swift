import CheckoutDomain
import Foundation
import PostgresNIO
import Synchronization
import Testing

@testable import CheckoutPersistence

/// The limit on a PostgreSQL call: it ends a call that never answers, and costs nothing once a call has answered.
@Suite struct DatabaseDeadlineTests {
    private static let executor = EventLoopTaskExecutor(PostgresClient.defaultEventLoopGroup.next())

    @Test func aCallThatAnswersInTimeReturnsItsResult() async throws {
        let deadline = DatabaseDeadline(limit: .seconds(10), executor: Self.executor)

        let answer = try await deadline.run("a quick call") { 42 }

        #expect(answer == 42)
    }

    /// Where the client's connections run: a call there writes, reads and decodes without a hop.
    @Test func aCallRunsOnTheEventLoopOfItsExecutorAndAnswersItsCallerWhereItWas() async throws {
        let deadline = DatabaseDeadline(limit: .seconds(10), executor: Self.executor)
        let elsewhere = SQLiteThread(name: "a caller's thread")
        defer { elsewhere.stop() }

        let (ranOnTheLoop, answeredOnTheLoop) = try await withTaskExecutorPreference(elsewhere) {
            let ranOnTheLoop = try await deadline.run("a call") { Self.executor.loop.inEventLoop }
            return (ranOnTheLoop, Self.executor.loop.inEventLoop)
        }

        #expect(ranOnTheLoop)
        #expect(!answeredOnTheLoop)
    }

    @Test func aCallThatNeverAnswersEndsAsRetryableAtTheLimit() async throws {
        let deadline = DatabaseDeadline(limit: .milliseconds(100), executor: Self.executor)
        let start = ContinuousClock.now

        let error = await #expect(throws: RetryableError.self) {
            try await deadline.run("a stuck call") { try await Task.sleep(for: .seconds(60)) }
        }

        #expect(error?.code == .databaseUnavailable)
        #expect(ContinuousClock.now - start < .seconds(5))
    }

    /// A worker told to stop (SIGTERM during start-up, the end of the grace period) stops waiting for a
    /// database that does not answer, instead of waiting out the limit.
    @Test func aCancelledCallerStopsWaitingAtOnceAndTheCallIsCancelled() async throws {
        let deadline = DatabaseDeadline(limit: .seconds(60), executor: Self.executor)
        let callCancelled = CancellationFlag()
        let caller = Task {
            try await deadline.run("a stuck call") {
                do {
                    try await Task.sleep(for: .seconds(60))
                } catch {
                    callCancelled.raise()
                    throw error
                }
            }
        }
        try await Task.sleep(for: .milliseconds(200))
        let start = ContinuousClock.now

        caller.cancel()

        let error = await #expect(throws: RetryableError.self) { try await caller.value }
        #expect(error?.code == .databaseUnavailable)
        #expect(ContinuousClock.now - start < .seconds(5))
        try await callCancelled.wait(timeout: .seconds(5))
    }

    @Test func aCallerCancelledBeforeTheCallDoesNotWait() async throws {
        let deadline = DatabaseDeadline(limit: .seconds(60), executor: Self.executor)
        let start = ContinuousClock.now

        let caller = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await deadline.run("a stuck call") { try await Task.sleep(for: .seconds(60)) }
        }

        await #expect(throws: RetryableError.self) { try await caller.value }
        #expect(ContinuousClock.now - start < .seconds(5))
    }

    /// A worker makes about five calls per command, so a timer kept after its call answered (a cancelled
    /// `Task.sleep` holds its dispatch timer, about 700 bytes, until the limit) grows the process by
    /// tens of megabytes under load. 100,000 answered calls must leave far less than that resident.
    @Test func answeredCallsLeaveNoTimersBehind() async throws {
        let deadline = DatabaseDeadline(limit: .seconds(60), executor: Self.executor)
        let before = try Self.residentKiB()

        for _ in 0..<200 {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<500 {
                    // Answers after a short wait, as a query does: its timer is armed by then.
                    group.addTask { try await deadline.run("a call") { try await Task.sleep(for: .milliseconds(5)) } }
                }
                try await group.waitForAll()
            }
        }

        let grownKiB = try Self.residentKiB() - before
        #expect(grownKiB < 40_000, "the process grew by \(grownKiB) KiB over 100,000 answered calls")
    }

    /// `VmRSS` of this process, from `/proc/self/status`.
    private static func residentKiB() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
    }
}

/// Raised by a call when it is cancelled; the test waits for it.
private final class CancellationFlag: Sendable {
    private let raised = Mutex(false)

    func raise() { raised.withLock { $0 = true } }

    func wait(timeout: Duration) async throws {
        let deadline = ContinuousClock.now + timeout
        while !raised.withLock({ $0 }) {
            try #require(ContinuousClock.now < deadline, "the abandoned call was not cancelled within \(timeout)")
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
