public import Foundation

/// The rules of ``ProcessedCommands`` (claims with a lease, the first outcome wins) as a value, for
/// stores that keep processed commands in memory: the in-memory store and the tests' fakes.
public struct CommandLog<Outcome: Sendable & Equatable>: Sendable {
    /// What is known of one command id.
    enum Entry: Sendable, Equatable {
        case claimed(until: Date, digest: CommandDigest?)
        /// A claim given up after a failed attempt: free for the same command, not for another.
        case released(digest: CommandDigest?)
        case completed(Outcome, digest: CommandDigest?)
    }

    private var entries: [CommandID: Entry] = [:]

    public init() {}

    /// Whether the id was claimed or handled: a command of another type may not use it.
    public func holds(_ commandID: CommandID) -> Bool {
        entries[commandID] != nil
    }

    /// The recorded outcome, if any.
    public func outcome(for commandID: CommandID) -> Outcome? {
        guard case .completed(let outcome, _) = entries[commandID] else { return nil }
        return outcome
    }

    /// The recorded outcome with its digest, if any.
    public func recorded(_ commandID: CommandID) -> RecordedOutcome<Outcome>? {
        guard case .completed(let outcome, let digest) = entries[commandID] else { return nil }
        return RecordedOutcome(outcome, digest: digest)
    }

    /// ``ProcessedCommands/claim(_:digest:at:leaseUntil:)``: never two `.claimed` while a lease runs.
    public mutating func claim(_ commandID: CommandID, digest: CommandDigest?, at now: Date, leaseUntil: Date) -> CommandClaim<Outcome> {
        switch entries[commandID] {
        case .completed(let outcome, let recorded):
            return Self.matches(recorded, digest) ? .completed(outcome) : .conflicting
        case .claimed(_, let recorded) where !Self.matches(recorded, digest), .released(let recorded) where !Self.matches(recorded, digest):
            return .conflicting
        case .claimed(let until, _) where until > now:
            return .inProgress(until: until)
        case .claimed, .released, nil:
            entries[commandID] = .claimed(until: leaseUntil, digest: digest)
            return .claimed
        }
    }

    /// Whether a stored digest and a command's name the same command; an unknown digest matches any.
    public static func matches(_ stored: CommandDigest?, _ digest: CommandDigest?) -> Bool {
        guard let stored, let digest else { return true }
        return stored == digest
    }

    /// ``ProcessedCommands/record(_:for:)``: the first recorded outcome wins.
    public mutating func record(_ outcome: Outcome, for commandID: CommandID) -> Outcome {
        record(outcome, digest: nil, for: commandID)?.outcome ?? outcome
    }

    /// Records `outcome` for a command with `digest` (or the digest its claim was taken with), unless an
    /// outcome is recorded already: then returns that one and changes nothing.
    public mutating func record(_ outcome: Outcome, digest: CommandDigest?, for commandID: CommandID) -> RecordedOutcome<Outcome>? {
        switch entries[commandID] {
        case .completed(let recorded, let recordedDigest):
            return RecordedOutcome(recorded, digest: recordedDigest)
        case .claimed(_, let claimed), .released(let claimed):
            entries[commandID] = .completed(outcome, digest: digest ?? claimed)
        case nil:
            entries[commandID] = .completed(outcome, digest: digest)
        }
        return nil
    }

    /// ``ProcessedCommands/release(_:)``: frees an unfinished claim for its own command, never an outcome.
    public mutating func release(_ commandID: CommandID) {
        if case .claimed(_, let digest) = entries[commandID] {
            entries[commandID] = .released(digest: digest)
        }
    }
}
