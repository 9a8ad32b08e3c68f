import Synchronization

/// Every result event a chaos run's client received, by the command it answers.
final class EventJournal: Sendable {
    private struct State {
        var byCommand: [String: [ObservedEvent]] = [:]
        var arrivals: [ContinuousClock.Instant] = []
    }

    private let state = Mutex(State())

    func append(_ event: ObservedEvent) {
        state.withLock {
            $0.byCommand[event.correlationID, default: []].append(event)
            $0.arrivals.append(event.arrival)
        }
    }

    /// The first event that answered the command, if any yet.
    func answer(to commandID: String) -> ObservedEvent? {
        state.withLock { $0.byCommand[commandID]?.first }
    }

    /// Every event, by command id.
    var byCommand: [String: [ObservedEvent]] { state.withLock { $0.byCommand } }

    /// When each event arrived, in order.
    var arrivals: [ContinuousClock.Instant] { state.withLock { $0.arrivals } }

    var count: Int { state.withLock { $0.arrivals.count } }
}
