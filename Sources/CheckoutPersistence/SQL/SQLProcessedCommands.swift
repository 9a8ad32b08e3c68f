import CheckoutDomain
import Foundation

/// ``ProcessedCommands`` over the `processed_commands` table, one kind of command.
struct SQLProcessedCommands<Outcome: Codable & Sendable & Equatable>: ProcessedCommands {
    let executor: SQLExecutor
    let log: SQLCommandLog

    /// Tries the claim; if it is not taken, reads who has it. A row gone in between makes it try again;
    /// a few rounds, since each one means another worker made progress.
    ///
    /// Only one attempt of this process at a time holds the command's mark; a duplicate delivered
    /// meanwhile cannot take the claim from it, though both would be this worker's in the database.
    func claim(_ commandID: CommandID, digest: CommandDigest?, at now: Date, leaseUntil: Date) async throws -> CommandClaim<Outcome> {
        try await claim(commandID, digest: digest, at: now, leaseUntil: leaseUntil, readingCart: nil).claim
    }

    /// ``claim(_:digest:at:leaseUntil:)``, and the cart `cartID` with its products once the command is
    /// claimed, with what `chargeRequest` answers for them written as its charge
    /// (``SQLCommandLog/takeClaim(_:digest:at:leaseUntil:isOnlyAttempt:readingCart:chargeRequest:on:)``).
    func claim(
        _ commandID: CommandID, digest: CommandDigest?, at now: Date, leaseUntil: Date, readingCart cartID: CartID?,
        chargeRequest: (@Sendable (Cart, [SKU: Product]) -> ChargeRecord?)? = nil
    ) async throws -> (claim: CommandClaim<Outcome>, read: SQLCartRead?) {
        let isOnlyAttempt = log.beginAttempt(commandID)
        let claim: (claim: CommandClaim<Outcome>, read: SQLCartRead?)
        do {
            claim = try await executor.autocommit("claiming command \(commandID)") { [log] database in
                for _ in 1...3 {
                    let claimed = try await log.unlessAnotherKindHolds(commandID, on: database) {
                        try await log.takeClaim(
                            commandID, digest: digest, at: now, leaseUntil: leaseUntil, isOnlyAttempt: isOnlyAttempt, readingCart: cartID,
                            chargeRequest: chargeRequest, on: database)
                    }
                    guard let taken = claimed else { return (.conflicting, nil) }
                    if taken.isTaken {
                        return (.claimed, taken.read)
                    }
                    guard let entry = try await log.entry(commandID, on: database) else {
                        // The attempt holding the mark has not written its claim yet.
                        if !isOnlyAttempt { return (.inProgress(until: leaseUntil), nil) }
                        continue
                    }
                    let recorded = try entry.value("digest", as: String?.self).map(CommandDigest.init)
                    guard CommandLog<Outcome>.matches(recorded, digest) else { return (.conflicting, nil) }
                    if try !entry.isNull("outcome") {
                        return (.completed(try entry.json("outcome", as: Outcome.self)), nil)
                    }
                    return (.inProgress(until: try entry.date("lease_until")), nil)
                }
                throw RetryableError(
                    code: .databaseUnavailable, context: "command \(commandID) was claimed and released three times while claiming it")
            }
        } catch {
            if isOnlyAttempt { log.endAttempt(commandID) }
            throw error
        }
        if isOnlyAttempt, case .claimed = claim.claim { return claim }
        if isOnlyAttempt { log.endAttempt(commandID) }
        return claim
    }

    func record(_ outcome: Outcome, for commandID: CommandID) async throws -> Outcome {
        try await executor.autocommit("recording the outcome of command \(commandID)") { [log] database in
            try await log.record(outcome, for: commandID, on: database)?.outcome ?? outcome
        }
    }

    /// Ends the attempt first: when the database is away, not even a connection can be had.
    func release(_ commandID: CommandID) async throws {
        log.endAttempt(commandID)
        try await executor.autocommit("releasing command \(commandID)") { [log] database in
            try await log.release(commandID, on: database)
        }
    }
}
