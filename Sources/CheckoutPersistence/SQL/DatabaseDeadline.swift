import CheckoutDomain
import Synchronization

/// Stops waiting for a database call after a time limit.
///
/// A PostgreSQL call whose connection is cut in the middle can wait forever (postgres-nio's pool does
/// not fail the request), and a command waiting on it would hold its delivery and block shutdown. Past
/// the limit the caller gets a retryable `database-unavailable` and moves on; the abandoned call is
/// cancelled and left to end whenever it does.
struct DatabaseDeadline: Sendable {
    let limit: Duration

    func run<Result: Sendable>(_ context: String, _ operation: @escaping @Sendable () async throws -> Result) async throws -> Result {
        let race = Race<Result>()
        return try await withCheckedThrowingContinuation { continuation in
            race.waiter.withLock { $0 = continuation }
            let work = Task {
                let outcome: Swift.Result<Result, any Error>
                do {
                    outcome = .success(try await operation())
                } catch {
                    outcome = .failure(error)
                }
                race.timer.withLock { $0 }?.cancel()
                race.waiter.withLock { $0.take() }?.resume(with: outcome)
            }
            let limit = self.limit
            race.timer.withLock {
                $0 = Task {
                    try? await Task.sleep(for: limit)
                    guard !Task.isCancelled, let continuation = race.waiter.withLock({ $0.take() }) else { return }
                    work.cancel()
                    continuation.resume(throwing: RetryableError(code: .databaseUnavailable, context: "\(context): no answer from the database within \(limit)"))
                }
            }
            // The call may have answered before there was a timer to cancel.
            if race.waiter.withLock({ $0 == nil }) { race.timer.withLock { $0 }?.cancel() }
        }
    }

    /// Who answers first, the call or the timer: whoever takes the continuation resumes it.
    private final class Race<Result: Sendable>: Sendable {
        let waiter = Mutex<CheckedContinuation<Result, any Error>?>(nil)
        let timer = Mutex<Task<Void, Never>?>(nil)
    }
}
