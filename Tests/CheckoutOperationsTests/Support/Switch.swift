import Synchronization

/// A readiness condition a test turns on and off while the server runs.
final class Switch: Sendable {
    private let state: Atomic<Bool>

    init(_ isOn: Bool) {
        state = Atomic(isOn)
    }

    var isOn: Bool { state.load(ordering: .relaxed) }

    func set(_ isOn: Bool) {
        state.store(isOn, ordering: .relaxed)
    }
}
