import CheckoutDomain
import Foundation

/// ``ProcessedCommands`` over the `processed_commands` table, one kind of command.
struct SQLProcessedCommands<Outcome: Codable & Sendable & Equatable>: ProcessedCommands {
    typealias Claim = (claim: CommandClaim<Outcome>, read: SQLCartRead?)

    let executor: SQLExecutor
    let log: SQLCommandLog
    /// On PostgreSQL, the claims with a cart that arrive while others are in the database, taken
    /// together (``PostgresClaimBatch``); nil on SQLite, whose writer batches its own way.
    private let batcher: SQLBatcher<SQLClaimRequest, Claim>?

    init(executor: SQLExecutor, log: SQLCommandLog) {
        self.executor = executor
        self.log = log
        batcher = executor.batcher { requests in await Self.claim(batch: requests, executor: executor, log: log) }
    }

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
    /// (``SQLCommandLog/takeClaim(_:on:)``). On PostgreSQL the first attempt's claim goes into a
    /// batch; a duplicate's, rare, is taken alone.
    func claim(
        _ commandID: CommandID, digest: CommandDigest?, at now: Date, leaseUntil: Date, readingCart cartID: CartID?,
        chargeRequest: (@Sendable (Cart, [SKU: Product]) -> ChargeRecord?)? = nil
    ) async throws -> Claim {
        let request = SQLClaimRequest(
            commandID: commandID, digest: digest, now: now, leaseUntil: leaseUntil, isOnlyAttempt: log.beginAttempt(commandID),
            cartID: cartID, chargeRequest: chargeRequest)
        let claim: Claim
        do {
            if let batcher, cartID != nil, request.isOnlyAttempt {
                claim = try await batcher.submit(request)
            } else {
                claim = try await Self.claimAlone(request, executor: executor, log: log)
            }
        } catch {
            if request.isOnlyAttempt { log.endAttempt(commandID) }
            throw error
        }
        if request.isOnlyAttempt, case .claimed = claim.claim { return claim }
        if request.isOnlyAttempt { log.endAttempt(commandID) }
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

    /// One claim on a connection of its own: taken, or else who has the command.
    private static func claimAlone(_ request: SQLClaimRequest, executor: SQLExecutor, log: SQLCommandLog) async throws -> Claim {
        let commandID = request.commandID
        return try await executor.autocommit("claiming command \(commandID)") { database in
            for _ in 1...3 {
                let claimed = try await log.unlessAnotherKindHolds(commandID, on: database) {
                    try await log.takeClaim(request, on: database)
                }
                guard let taken = claimed else { return (.conflicting, nil) }
                if taken.isTaken {
                    return (.claimed, taken.read)
                }
                guard let entry = try await log.entry(commandID, on: database) else {
                    // The attempt holding the mark has not written its claim yet.
                    if !request.isOnlyAttempt { return (.inProgress(until: request.leaseUntil), nil) }
                    continue
                }
                let recorded = try entry.value("digest", as: String?.self).map(CommandDigest.init)
                guard CommandLog<Outcome>.matches(recorded, request.digest) else { return (.conflicting, nil) }
                if try !entry.isNull("outcome") {
                    return (.completed(try entry.json("outcome", as: Outcome.self)), nil)
                }
                return (.inProgress(until: try entry.date("lease_until")), nil)
            }
            throw RetryableError(
                code: .databaseUnavailable, context: "command \(commandID) was claimed and released three times while claiming it")
        }
    }

    /// A batch of claims on PostgreSQL (``SQLBatchAnswers``): several are taken in two statements
    /// (``PostgresClaimBatch/take(_:kind:owner:on:)``), and one the batch did not take is tried again
    /// alone, to learn who has the command. An id a sync holds fails the whole statement.
    private static func claim(
        batch requests: [SQLClaimRequest], executor: SQLExecutor, log: SQLCommandLog
    ) async -> [Result<Claim, any Error>] {
        await SQLBatchAnswers.of(requests.count) {
            let taken = try await executor.autocommit("claiming \(requests.count) commands together") { database in
                try await PostgresClaimBatch.take(requests, kind: log.kind, owner: log.owner.worker, on: database)
            }
            return taken.map { answer in answer.map { $0.map { (.claimed, $0) } } }
        } alone: { index in
            try await claimAlone(requests[index], executor: executor, log: log)
        }
    }
}
