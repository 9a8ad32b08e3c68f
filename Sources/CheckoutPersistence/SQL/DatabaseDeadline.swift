import CheckoutDomain
import NIOCore
import Synchronization

/// Stops waiting for a database call after a time limit.
///
/// A PostgreSQL call whose connection is cut in the middle can wait forever (postgres-nio's pool does
/// not fail the request), and a command waiting on it would hold its delivery and block shutdown. Past
/// the limit the caller gets a retryable `database-unavailable` and moves on; the abandoned call is
/// cancelled and left to end whenever it does.
///
/// The call runs as a task of its own that prefers `executor`'s event loop, the one the client's
/// connections run on: a task does not inherit its creator's executor, and on Swift's global one
/// every statement went from the caller's thread to a pool thread, to the connection's loop and back
/// twice, two thread wake-ups more than needed.
///
/// The timer is a scheduled task of the same loop, which cancelling removes at once. A `Task.sleep`
/// cancelled early keeps its dispatch timer (about 700 bytes) until the limit has passed: at five
/// calls per command, tens of thousands of them, and a worker that grew by megabytes under load.
struct DatabaseDeadline: Sendable {
    var limit: Duration
    /// Where calls run and timers fire.
    let executor: EventLoopTaskExecutor

    /// A caller cancelled meanwhile stops waiting at once, with the same retryable error, and the call
    /// is cancelled as at the limit.
    func run<Result: Sendable>(_ context: String, _ operation: @escaping @Sendable () async throws -> Result) async throws -> Result {
        let abandoned = Mutex<(@Sendable () -> Void)?>(nil)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let race = Race(waiter: continuation)
                let work = Task(executorPreference: executor) {
                    let outcome: Swift.Result<Result, any Error>
                    do {
                        outcome = .success(try await operation())
                    } catch {
                        outcome = .failure(error)
                    }
                    let (waiter, timer) = race.finish()
                    timer?.cancel()
                    waiter?.resume(with: outcome)
                }
                let giveUp: @Sendable (String) -> Void = { reason in
                    let (waiter, timer) = race.finish()
                    guard let waiter else { return }
                    timer?.cancel()
                    work.cancel()
                    waiter.resume(throwing: RetryableError(code: .databaseUnavailable, context: "\(context): \(reason)"))
                }
                let limit = self.limit
                race.arm(executor.loop.scheduleTask(in: TimeAmount(limit)) { giveUp("no answer from the database within \(limit)") })
                // Checked under the lock that `onCancel` takes, so that a cancellation cannot slip between.
                let cancelled = abandoned.withLock { abandon in
                    abandon = { giveUp("cancelled while waiting for the database") }
                    return Task.isCancelled
                }
                if cancelled { giveUp("cancelled while waiting for the database") }
            }
        } onCancel: {
            abandoned.withLock { $0 }?()
        }
    }

    /// Who answers first, the call or the timer: whoever finishes the race resumes the caller.
    private final class Race<Result: Sendable>: Sendable {
        private struct State {
            var waiter: CheckedContinuation<Result, any Error>?
            var timer: Scheduled<Void>?
        }

        private let state: Mutex<State>

        init(waiter: CheckedContinuation<Result, any Error>) {
            state = Mutex(State(waiter: waiter))
        }

        /// Keeps the timer for whoever finishes; cancels it at once if the call has already answered.
        func arm(_ timer: Scheduled<Void>) {
            let answered = state.withLock { state in
                guard state.waiter != nil else { return true }
                state.timer = timer
                return false
            }
            if answered { timer.cancel() }
        }

        /// The caller to resume and the timer to cancel, to the first who asks; nothing to the second.
        func finish() -> (waiter: CheckedContinuation<Result, any Error>?, timer: Scheduled<Void>?) {
            state.withLock { state in
                defer { state = State() }
                return (state.waiter, state.timer)
            }
        }
    }
}
