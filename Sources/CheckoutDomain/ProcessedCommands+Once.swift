import Foundation

extension ProcessedCommands {
    /// Runs a command's `work` at most once across workers and reports its outcome, also on a repeat,
    /// given the command's `claim` (``claim(_:digest:at:leaseUntil:)``, or a store's read that took it).
    ///
    /// A handled command reports its stored outcome and does nothing else; a command re-using a handled
    /// id with another digest is reported as `conflict` and does nothing else; one claimed by another
    /// worker throws a retryable `command-in-progress`; a failed attempt releases its claim so that the
    /// retry need not wait for the lease to run out.
    func once(
        _ commandID: CommandID,
        claim: CommandClaim<Outcome>,
        work: () async throws -> Outcome,
        report: (Outcome) async throws -> Void,
        conflict: () async throws -> Void
    ) async throws {
        switch claim {
        case .completed(let outcome):
            try await report(outcome)
        case .conflicting:
            try await conflict()
        case .inProgress(let until):
            throw RetryableError(code: .commandInProgress, context: "command \(commandID) is claimed until \(until)")
        case .claimed:
            let outcome: Outcome
            do {
                outcome = try await work()
            } catch {
                try? await release(commandID)
                throw error
            }
            try await report(outcome)
        }
    }
}
