import Synchronization

/// The failures a test lines up for the next executions of a use case, as a failing port would throw them.
final class ExecutionFailures: Sendable {
    private let queued = Mutex<[any Error]>([])

    /// The next execution throws `error` before the use case runs.
    func fail(with error: any Error) {
        queued.withLock { $0.append(error) }
    }

    /// The failure for this execution, if one is lined up.
    func next() -> (any Error)? {
        queued.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }
}
