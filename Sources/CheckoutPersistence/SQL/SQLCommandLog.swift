import CheckoutDomain
import Foundation
import SQLKit

/// The rows of `processed_commands` for one kind of command; the key `(kind, command_id)` is what
/// makes claims and outcomes atomic across workers, and ``idIndex`` keeps an id to one kind.
struct SQLCommandLog: Sendable {
    /// The unique index on `command_id` alone (``Migrations/oneIDSpace``).
    static let idIndex = "processed_commands_by_id"

    /// `sync-cart` or `place-order`: which use case the command ids belong to.
    let kind: String
    /// This worker, the owner of the claims it takes.
    let owner: SQLWorkerLiveness

    /// Inserts a claim, or takes over one whose lease ended or whose worker died, in one statement; not
    /// taken if another claim holds or an outcome is recorded. The unique key makes a concurrent insert
    /// wait and then lose.
    ///
    /// A command with another digest never takes a claim over: the id belongs to the command that took it.
    ///
    /// A worker died when it named itself as the claim's owner and its row in `workers` is gone or out of
    /// date on the database's clock. A claim taken before owners were recorded names nobody and waits for
    /// its lease.
    ///
    /// Only the attempt of this process that holds the command's mark (`request.isOnlyAttempt`) takes
    /// over this worker's own claim (one an attempt that failed with the database away could not
    /// release) or makes a new one; another attempt here, a duplicate delivery, may only take over a
    /// claim whose lease ended or whose worker died.
    ///
    /// With the request's `cartID`, a taken claim comes with that cart and its products, read just
    /// before it on the same connection (``cartWithProducts(_:on:)``), and what its `chargeRequest`
    /// answers for them is the charge the claim's statement writes, unless an earlier attempt wrote
    /// one, which it keeps and answers: on PostgreSQL one commit, not a second one for the charge; on
    /// SQLite one entry of the writer's batch. Nothing locks the cart
    /// until the order's write checks its version, so a read before the claim is no staler than one
    /// in its statement. A cart on PostgreSQL without `skus` (``Migrations/cartSKUs``) comes without
    /// products, and no charge is written.
    func takeClaim(_ request: SQLClaimRequest, on database: any SQLDatabase) async throws -> (isTaken: Bool, read: SQLCartRead?) {
        var read: SQLCartRead?
        if let cartID = request.cartID { read = try await Self.cartWithProducts(cartID, on: database) }
        let charge = request.charge(for: read)
        let chargeJSON = try charge.map(StoredJSON.text)
        let taken: StoredRow?
        if database.isPostgreSQL {
            taken = try await PostgresClaimBatch.claim(
                [PostgresClaimBatch.Claim(request: request, charge: chargeJSON)], kind: kind, owner: owner.worker, on: database)[0]
        } else {
            let claim = claimStatement(
                request.commandID, digest: request.digest, at: request.now, leaseUntil: request.leaseUntil,
                isOnlyAttempt: request.isOnlyAttempt, charge: chargeJSON, on: database)
            taken = try await database.raw(claim).first().map { StoredRow($0, of: "processed_commands") }
        }
        guard let taken else { return (false, nil) }
        return (true, try read.map { try $0.claimed(offering: charge, as: chargeJSON, leaving: taken) })
    }

    /// SQLite's statement that takes the claim (``takeClaim(_:on:)``), returning the command's `charge`
    /// if it did; on PostgreSQL the same statement is `checkout_take_claim`
    /// (``Migrations/earlierChargesKept``). A taken claim's charge becomes `charge` (``ChargeRecord``'s
    /// stored JSON) unless an earlier attempt wrote one, which it keeps: an approval above all.
    private func claimStatement(
        _ commandID: CommandID, digest: CommandDigest?, at now: Date, leaseUntil: Date, isOnlyAttempt: Bool, charge: String?,
        on database: any SQLDatabase
    ) -> SQLQueryString {
        """
        INSERT INTO processed_commands (kind, command_id, lease_until, digest, owner, charge)
        SELECT \(bind: kind), \(bind: commandID.rawValue), \(bind: leaseUntil.timeIntervalSince1970), \(bind: digest?.rawValue),
               \(bind: owner.worker), \(bind: charge)
        WHERE \(bind: isOnlyAttempt) OR EXISTS (
            SELECT 1 FROM processed_commands WHERE kind = \(bind: kind) AND command_id = \(bind: commandID.rawValue))
        ON CONFLICT (kind, command_id) DO UPDATE SET lease_until = excluded.lease_until, digest = excluded.digest, owner = excluded.owner,
            charge = COALESCE(processed_commands.charge, excluded.charge)
        WHERE processed_commands.outcome IS NULL
          AND (processed_commands.digest IS NULL OR excluded.digest IS NULL OR processed_commands.digest = excluded.digest)
          AND (processed_commands.lease_until <= \(bind: now.timeIntervalSince1970)
               OR (processed_commands.owner = \(bind: owner.worker) AND \(bind: isOnlyAttempt))
               OR (processed_commands.owner IS NOT NULL AND processed_commands.owner <> \(bind: owner.worker) AND NOT EXISTS (
                   SELECT 1 FROM workers
                   WHERE workers.id = processed_commands.owner AND workers.alive_until > \(unsafeRaw: database.secondsSince1970))))
        RETURNING charge
        """
    }

    /// The cart `cartID` and its products. On PostgreSQL one statement, by the cart's `skus`, and
    /// products nil when it has none; on SQLite, where a statement is no round trip and carts have no
    /// `skus`, the cart and then the products of its lines.
    private static func cartWithProducts(_ cartID: CartID, on database: any SQLDatabase) async throws -> SQLCartRead {
        guard database.isPostgreSQL else {
            guard let cart = try await SQLCarts.cart(cartID, on: database) else { return SQLCartRead(cart: nil, products: nil) }
            return SQLCartRead(cart: cart, products: try await SQLCatalog.products(Set(cart.lines.map(\.sku)), on: database))
        }
        return try await PostgresClaimBatch.carts([cartID], on: database)[0]
    }

    /// Writes `charge` (``ChargeRecord``'s stored JSON) into the command's row: ``SQLChargeLog``.
    func recordCharge(_ charge: String, for commandID: CommandID, on database: any SQLDatabase) async throws {
        try await database.raw(
            """
            UPDATE processed_commands SET charge = \(bind: charge)
            WHERE kind = \(bind: kind) AND command_id = \(bind: commandID.rawValue)
            """
        ).run()
    }

    /// The recorded outcome (JSON), the lease and the digest of a command, or nil if it has no row.
    func entry(_ commandID: CommandID, on database: any SQLDatabase) async throws -> StoredRow? {
        try await database.raw(
            """
            SELECT outcome, lease_until, digest FROM processed_commands
            WHERE kind = \(bind: kind) AND command_id = \(bind: commandID.rawValue)
            """
        ).first().map { StoredRow($0, of: "processed_commands") }
    }

    /// Records `outcome` if the command has none, and returns nil; otherwise returns the recorded one.
    /// Either way, this process's attempt no longer holds a claim on the command.
    ///
    /// - Parameter digest: The body's digest, for a command recorded without a claim; nil keeps the claim's.
    func record<Outcome: Codable & Sendable & Equatable>(
        _ outcome: Outcome,
        digest: CommandDigest? = nil,
        for commandID: CommandID,
        on database: any SQLDatabase
    ) async throws -> RecordedOutcome<Outcome>? {
        let recorded =
            try await database.raw(
                """
                INSERT INTO processed_commands (kind, command_id, outcome, recorded_at, digest)
                VALUES (\(bind: kind), \(bind: commandID.rawValue), \(bind: try StoredJSON.text(outcome)), \(bind: Date().timeIntervalSince1970),
                        \(bind: digest?.rawValue))
                ON CONFLICT (kind, command_id) DO UPDATE SET outcome = excluded.outcome, recorded_at = excluded.recorded_at, lease_until = NULL,
                    digest = COALESCE(excluded.digest, processed_commands.digest)
                WHERE processed_commands.outcome IS NULL
                RETURNING command_id
                """
            ).first() != nil
        endAttempt(commandID)
        guard !recorded else { return nil }
        guard let entry = try await entry(commandID, on: database) else {
            throw PersistenceError(code: .unreadableRow, context: "command \(commandID) has no outcome after one was recorded")
        }
        return RecordedOutcome(
            try entry.json("outcome", as: Outcome.self), digest: try entry.value("digest", as: String?.self).map(CommandDigest.init))
    }

    /// Runs `write`, a statement that inserts this kind's row for `commandID` or meets it through
    /// `ON CONFLICT (kind, command_id)`; nil when a command of another kind holds the id.
    ///
    /// Such a command's row makes the insert fail on ``idIndex``, which `ON CONFLICT` does not name. On
    /// PostgreSQL so can a row of this kind inserted by a concurrent statement after this one looked
    /// for it (a non-arbiter unique index is checked as a plain insert): then `write` runs again and
    /// finds that row.
    func unlessAnotherKindHolds<Result>(
        _ commandID: CommandID, on database: any SQLDatabase, _ write: () async throws -> Result
    ) async throws -> Result? {
        for _ in 1...3 {
            do {
                return try await write()
            } catch  where DatabaseFault.isUniqueViolation(error, index: Self.idIndex, table: "processed_commands", column: "command_id") {
                let holder = try await database.raw("SELECT kind FROM processed_commands WHERE command_id = \(bind: commandID.rawValue)")
                    .first().map { try StoredRow($0, of: "processed_commands").value("kind", as: String.self) }
                if let holder, holder != kind { return nil }
            }
        }
        throw RetryableError(
            code: .databaseUnavailable, context: "command \(commandID) met concurrent writes of its id three times while recording it")
    }

    /// Marks the command as taken by an attempt of this process; false when another attempt holds or
    /// takes it (a duplicate delivery).
    func beginAttempt(_ commandID: CommandID) -> Bool {
        owner.heldClaims.begin(kind: kind, commandID: commandID.rawValue)
    }

    /// This process's attempt at the command is over, whether or not its claim can be released.
    func endAttempt(_ commandID: CommandID) {
        owner.heldClaims.end(kind: kind, commandID: commandID.rawValue)
    }

    /// Frees an unfinished claim of this worker's; one another worker took over is left to it. The row
    /// stays, expired, with its digest (the id stays the command's) and its charge (the next attempt's).
    func release(_ commandID: CommandID, on database: any SQLDatabase) async throws {
        try await database.raw(
            """
            UPDATE processed_commands SET lease_until = 0, owner = NULL
            WHERE kind = \(bind: kind) AND command_id = \(bind: commandID.rawValue) AND outcome IS NULL AND owner = \(bind: owner.worker)
            """
        ).run()
    }
}
