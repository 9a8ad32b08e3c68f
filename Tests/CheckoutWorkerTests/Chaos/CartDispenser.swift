import Synchronization

/// Hands out cart numbers to a chaos run's shoppers: until the faults are over and at least
/// `minimum` carts were taken, so that load runs through every fault, and never more than `maximum`.
final class CartDispenser: Sendable {
    private let minimum: Int
    private let maximum: Int
    private let state = Mutex((next: 0, faultsOver: false))

    init(minimum: Int, maximum: Int) {
        self.minimum = minimum
        self.maximum = maximum
    }

    /// The next cart's number, or nil when the run has enough.
    func next() -> Int? {
        state.withLock { state in
            guard state.next < maximum, !(state.faultsOver && state.next >= minimum) else { return nil }
            defer { state.next += 1 }
            return state.next
        }
    }

    func faultsAreOver() {
        state.withLock { $0.faultsOver = true }
    }

    /// How many carts were handed out.
    var count: Int { state.withLock { $0.next } }
}
