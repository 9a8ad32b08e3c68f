import Synchronization

/// Holds back the calls made before ``PostgresEngine/run()`` starts its client, until it does: a lease
/// from `PostgresClient` before its `run()` waits for it anyway, and postgres-nio logs a warning for
/// each one. A store's first call, its migration, is made as its client starts, and would race it.
final class PostgresStartGate: Sendable {
    private enum State {
        case closed(waiting: [CheckedContinuation<Void, Never>])
        case open
    }

    private let state = Mutex(State.closed(waiting: []))

    /// Lets every call through, those waiting and those to come.
    func open() {
        let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard case .closed(let waiting) = state else { return [] }
            state = .open
            return waiting
        }
        waiting.forEach { $0.resume() }
    }

    /// Returns once the gate is open: at once, after the client started.
    func pass() async {
        if state.withLock({ if case .open = $0 { true } else { false } }) { return }
        await withCheckedContinuation { continuation in
            let isOpen = state.withLock { state in
                guard case .closed(var waiting) = state else { return true }
                waiting.append(continuation)
                state = .closed(waiting: waiting)
                return false
            }
            if isOpen { continuation.resume() }
        }
    }
}
