import CheckoutDomain
import CheckoutTestSupport
import Synchronization

/// What a test arranged to happen at the store's port calls: a call failing as the database would
/// when it is down, or another worker acting just before a call (between the use case's read and
/// its write). Remembers the calls it saw, for a test that checks the store was left alone.
final class StoreInterceptor: Sendable {
    private struct Arrangement {
        var failing: Set<StoreCall> = []
        var before: [StoreCall: @Sendable () async throws -> Void] = [:]
        var calls: [StoreCall] = []
    }

    private let arrangement = Mutex(Arrangement())

    /// Makes every one of `calls` throw a retryable `databaseUnavailable` until told otherwise.
    func fail(_ calls: Set<StoreCall>) {
        arrangement.withLock { $0.failing = calls }
    }

    /// Runs `action` once, just before the next `call` reaches the store.
    func before(_ call: StoreCall, _ action: @escaping @Sendable () async throws -> Void) {
        arrangement.withLock { $0.before[call] = action }
    }

    /// Every call the use case made, in order.
    var calls: [StoreCall] {
        arrangement.withLock { $0.calls }
    }

    /// Called by the decorators before they pass `call` on to the store.
    func intercept(_ call: StoreCall) async throws {
        let (action, isFailing) = arrangement.withLock { arrangement in
            arrangement.calls.append(call)
            return (arrangement.before.removeValue(forKey: call), arrangement.failing.contains(call))
        }
        try await action?()
        guard !isFailing else {
            throw RetryableError(code: .databaseUnavailable, context: "\(call)", underlying: ConnectionLost())
        }
    }
}
