public import Foundation

/// The rules of ``ProcessedCommands`` (claims with a lease, the first outcome wins) as a value, for
/// stores that keep processed commands in memory: the in-memory store and the tests' fakes.
public struct CommandLog<Outcome: Sendable & Equatable>: Sendable {
    /// What is known of one command id.
    enum Entry: Sendable, Equatable {
        case claimed(until: Date)
        case completed(Outcome)
    }

    private var entries: [CommandID: Entry] = [:]

    public init() {}

    /// Whether no command was ever claimed or recorded (a released claim leaves nothing).
    public var isEmpty: Bool { entries.isEmpty }

    /// The recorded outcome, if any.
    public func outcome(for commandID: CommandID) -> Outcome? {
        guard case .completed(let outcome) = entries[commandID] else { return nil }
        return outcome
    }

    /// ``ProcessedCommands/claim(_:at:leaseUntil:)``: never two `.claimed` while a lease runs.
    public mutating func claim(_ commandID: CommandID, at now: Date, leaseUntil: Date) -> CommandClaim<Outcome> {
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

    /// ``ProcessedCommands/record(_:for:)``: the first recorded outcome wins.
    public mutating func record(_ outcome: Outcome, for commandID: CommandID) -> Outcome {
        if let recorded = self.outcome(for: commandID) { return recorded }
        entries[commandID] = .completed(outcome)
        return outcome
    }

    /// ``ProcessedCommands/release(_:)``: forgets an unfinished claim, never an outcome.
    public mutating func release(_ commandID: CommandID) {
        if case .claimed = entries[commandID] {
            entries[commandID] = nil
        }
    }
}
