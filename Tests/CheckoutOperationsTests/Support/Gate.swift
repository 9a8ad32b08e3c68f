import Synchronization

/// Holds its waiters until opened, ignoring task cancellation: a dependency that hangs for real.
final class Gate: Sendable {
    private let waiters = Mutex<[CheckedContinuation<Void, Never>]?>([])

    func wait() async {
        await withCheckedContinuation { continuation in
            let isOpen = waiters.withLock { waiters in
                guard waiters != nil else { return true }
                waiters?.append(continuation)
                return false
            }
            if isOpen { continuation.resume() }
        }
    }

    func open() {
        let released = waiters.withLock { waiters in
            defer { waiters = nil }
            return waiters ?? []
        }
        released.forEach { $0.resume() }
    }
}
