public import Foundation

/// The answer to ``ProcessedCommands/claim(_:at:leaseUntil:)``: whether this worker may handle a command.
public enum CommandClaim<Outcome: Sendable>: Sendable {
    /// Nobody handled the command, or a claim on it expired: it is this worker's until the lease ends.
    case claimed
    /// The command was handled; its outcome is to be reported again and nothing else done.
    case completed(Outcome)
    /// Another worker is handling it until `until`; try again later.
    case inProgress(until: Date)
    /// A command with this id and another digest was handled: this one re-uses the id, and gets
    /// nothing of that command's outcome.
    case conflicting
}

extension CommandClaim: Equatable where Outcome: Equatable {}
