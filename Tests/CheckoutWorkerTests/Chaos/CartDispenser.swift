import Synchronization

/// Hands out cart numbers to a chaos run's shoppers: until the faults are over and at least
/// `minimumCommands` commands were sent, so that load runs through every fault and the run is big
/// enough, and never more than `maximum` carts.
final class CartDispenser: Sendable {
    private let minimumCommands: Int
    private let maximum: Int
    private let commandsSent: @Sendable () -> Int
    private let state = Mutex((next: 0, faultsOver: false))

    init(minimumCommands: Int, maximum: Int, commandsSent: @escaping @Sendable () -> Int) {
        self.minimumCommands = minimumCommands
        self.maximum = maximum
        self.commandsSent = commandsSent
    }

    /// The next cart's number, or nil when the run has enough.
    func next() -> Int? {
        let sent = commandsSent()
        return state.withLock { state in
            guard state.next < maximum, !(state.faultsOver && sent >= minimumCommands) else { return nil }
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
