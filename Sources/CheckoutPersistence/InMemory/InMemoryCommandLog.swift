import CheckoutDomain
import Foundation

/// The processed-commands table of ``InMemoryDatabase`` for one kind of command, with the claim rules of ``ProcessedCommands``.
struct InMemoryCommandLog<Outcome: Sendable & Equatable>: Sendable {
    /// What is known of one command id.
    enum Entry: Sendable, Equatable {
        case claimed(until: Date)
        case completed(Outcome)
    }

    private var entries: [CommandID: Entry] = [:]

    func outcome(for commandID: CommandID) -> Outcome? {
        guard case .completed(let outcome) = entries[commandID] else { return nil }
        return outcome
    }

    mutating func claim(_ commandID: CommandID, at now: Date, leaseUntil: Date) -> CommandClaim<Outcome> {
        switch entries[commandID] {
        case .completed(let outcome):
            return .completed(outcome)
        case .claimed(let until) where until > now:
            return .inProgress(until: until)
        case .claimed, nil:
            entries[commandID] = .claimed(until: leaseUntil)
            return .claimed
        }
    }

    mutating func record(_ outcome: Outcome, for commandID: CommandID) -> Outcome {
        if let recorded = self.outcome(for: commandID) { return recorded }
        entries[commandID] = .completed(outcome)
        return outcome
    }

    mutating func release(_ commandID: CommandID) {
        if case .claimed = entries[commandID] {
            entries[commandID] = nil
        }
    }
}
