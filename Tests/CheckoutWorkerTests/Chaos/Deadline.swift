import Synchronization

/// Bounds a call that must never hang a test: the chaos client's publishes, whose awaited confirm a
/// broken transport could fail to resume. The call is left running when its time is up.
enum Deadline {
    struct Exceeded: Error, CustomStringConvertible {
        let what: String
        let timeout: Duration
        var description: String { "\(what) did not finish within \(timeout)" }
    }

    /// The continuation, resumed by whichever comes first: the call or the timer.
    private final class Race<Value: Sendable>: Sendable {
        private let continuation: Mutex<CheckedContinuation<Value, any Error>?>

        init(_ continuation: CheckedContinuation<Value, any Error>) {
            self.continuation = Mutex(continuation)
        }

        func finish(_ result: Result<Value, any Error>) {
            continuation.withLock { $0.take() }?.resume(with: result)
        }
    }

    static func run<Value: Sendable>(
        _ what: String, within timeout: Duration, _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            let race = Race(continuation)
            Task {
                do {
                    race.finish(.success(try await operation()))
                } catch {
                    race.finish(.failure(error))
                }
            }
            Task {
                try? await Task.sleep(for: timeout)
                race.finish(.failure(Exceeded(what: what, timeout: timeout)))
            }
        }
    }
}
