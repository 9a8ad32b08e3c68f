public import Foundation

/// The outcomes of handled commands by command id, and the claims of commands being handled.
///
/// It is what makes a command's effect happen once: a redelivery or a re-published command finds
/// the stored outcome and reports it again. An implementation keeps one table per `Outcome` type
/// (or a column telling them apart), in the database that stores orders, because
/// ``OrderRepository`` records outcomes in its own transactions.
public protocol ProcessedCommands<Outcome>: Sendable {
    associatedtype Outcome: Codable & Sendable & Equatable

    /// Atomically takes the command for this worker until `leaseUntil`, remembering its `digest`.
    ///
    /// Returns ``CommandClaim/completed(_:)`` if an outcome is recorded for the same digest (or either is
    /// unknown), ``CommandClaim/conflicting`` if the id was claimed or handled for another digest or by a
    /// command of another type (the id belongs to the command that took it first: ids are one space), ``CommandClaim/inProgress(until:)``
    /// if another claim ends after `now`, and otherwise records the claim (taking over an expired one:
    /// its worker crashed) and returns ``CommandClaim/claimed``. Two concurrent calls never both get `.claimed`.
    func claim(_ commandID: CommandID, digest: CommandDigest?, at now: Date, leaseUntil: Date) async throws -> CommandClaim<Outcome>

    /// Records `outcome` unless an outcome is recorded already, and returns the one that is:
    /// the first recorded outcome wins, so a worker that lost its lease reports the winner's.
    func record(_ outcome: Outcome, for commandID: CommandID) async throws -> Outcome

    /// Gives up an unfinished claim so a retry of the same command can claim it at once; does nothing
    /// once an outcome is recorded. If it fails, the lease runs out instead.
    func release(_ commandID: CommandID) async throws
}
