import Synchronization

/// Resumes a continuation with the first of several racing outcomes and cancels the tasks that lost.
///
/// A readiness check races its deadline in unstructured tasks rather than a task group, because a
/// group waits for every child: a check that ignores cancellation would hang the probe.
final class FirstOutcome<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Value, Never>?
        var racers: [Task<Void, Never>] = []
    }

    private let state: Mutex<State>

    init(_ continuation: CheckedContinuation<Value, Never>) {
        state = Mutex(State(continuation: continuation))
    }

    /// Registers a racer to cancel once an outcome is in; cancels it at once if one already is.
    func race(_ racer: Task<Void, Never>) {
        let decided = state.withLock { state in
            if state.continuation == nil { return true }
            state.racers.append(racer)
            return false
        }
        if decided { racer.cancel() }
    }

    /// Resumes with `value` unless another outcome came first; answers whether this one was first.
    @discardableResult
    func resolve(_ value: Value) -> Bool {
        let won = state.withLock { state in
            defer { state.continuation = nil; state.racers = [] }
            return state.continuation.map { ($0, state.racers) }
        }
        guard let (continuation, racers) = won else { return false }
        continuation.resume(returning: value)
        racers.forEach { $0.cancel() }
        return true
    }
}
