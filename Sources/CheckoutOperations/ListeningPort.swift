import Synchronization

/// The port a server bound, which callers can await before the server has bound it.
///
/// It exists because port 0 asks the system for any free port: only the running server knows
/// which one it got.
final class ListeningPort: Sendable {
    private enum State {
        case waiting([Int: CheckedContinuation<Int, any Error>])
        case listening(Int)
        case stopped
    }

    private let state = Mutex(State.waiting([:]))
    private let nextWaiter = Atomic(0)
    private let address: String

    init(address: String) {
        self.address = address
    }

    /// The bound port; suspends until the server listens, throws once it has stopped.
    func value() async throws -> Int {
        let waiter = nextWaiter.add(1, ordering: .relaxed).newValue
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let answer: Result<Int, any Error>? = state.withLock { state in
                    switch state {
                    case .waiting(var waiters) where !Task.isCancelled:
                        waiters[waiter] = continuation
                        state = .waiting(waiters)
                        return nil
                    case .waiting: return .failure(CancellationError())
                    case .listening(let port): return .success(port)
                    case .stopped: return .failure(notListening)
                    }
                }
                if let answer { continuation.resume(with: answer) }
            }
        } onCancel: {
            let cancelled = state.withLock { state -> CheckedContinuation<Int, any Error>? in
                guard case .waiting(var waiters) = state else { return nil }
                defer { state = .waiting(waiters) }
                return waiters.removeValue(forKey: waiter)
            }
            cancelled?.resume(throwing: CancellationError())
        }
    }

    func listen(on port: Int) {
        settle(.listening(port), with: .success(port))
    }

    func stop() {
        settle(.stopped, with: .failure(notListening))
    }

    private func settle(_ newState: State, with answer: Result<Int, any Error>) {
        let waiters = state.withLock { state -> [CheckedContinuation<Int, any Error>] in
            defer { state = newState }
            guard case .waiting(let waiters) = state else { return [] }
            return Array(waiters.values)
        }
        waiters.forEach { $0.resume(with: answer) }
    }

    private var notListening: OperationsServerError {
        OperationsServerError(code: .notListening, context: "operations server on \(address)")
    }
}
