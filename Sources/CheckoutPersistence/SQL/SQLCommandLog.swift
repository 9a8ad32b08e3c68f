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
    /// With `cartID`, a taken claim comes with that cart and its products, and what `chargeRequest`
    /// answers for them is written as the command's charge (``recordCharge(_:for:on:)``) on the same
    /// connection: on SQLite in the same write, on PostgreSQL in the statement after. On PostgreSQL
    /// the claim, the cart and the products of its `skus` (``Migrations/cartSKUs``) are one statement,
    /// the claim in a `WITH`; a cart without `skus` comes without products, and no charge is written.
    /// SQLite, where a statement is no round trip and a `WITH` cannot write, reads the cart and then
    /// its products after the claim, on its one writer: that costs the writer about what a write of
    /// the charge's own did, and spares the order waiting for one more batch.
    ///
    /// - Parameter isOnlyAttempt: Whether this is the one attempt of this process that holds the
    ///   command's mark (``beginAttempt(_:)``). Only it takes over this worker's own claim (one an attempt
    ///   that failed with the database away could not release) or makes a new one; another attempt here,
    ///   a duplicate delivery, may only take over a claim whose lease ended or whose worker died.
    func takeClaim(
        _ commandID: CommandID, digest: CommandDigest?, at now: Date, leaseUntil: Date, isOnlyAttempt: Bool, readingCart cartID: CartID?,
        chargeRequest: (@Sendable (Cart, [SKU: Product]) -> ChargeRecord?)?, on database: any SQLDatabase
    ) async throws -> (isTaken: Bool, read: SQLCartRead?) {
        let claim: SQLQueryString = """
            INSERT INTO processed_commands (kind, command_id, lease_until, digest, owner)
            SELECT \(bind: kind), \(bind: commandID.rawValue), \(bind: leaseUntil.timeIntervalSince1970), \(bind: digest?.rawValue),
                   \(bind: owner.worker)
            WHERE \(bind: isOnlyAttempt) OR EXISTS (
                SELECT 1 FROM processed_commands WHERE kind = \(bind: kind) AND command_id = \(bind: commandID.rawValue))
            ON CONFLICT (kind, command_id) DO UPDATE SET lease_until = excluded.lease_until, digest = excluded.digest, owner = excluded.owner
            WHERE processed_commands.outcome IS NULL
              AND (processed_commands.digest IS NULL OR excluded.digest IS NULL OR processed_commands.digest = excluded.digest)
              AND (processed_commands.lease_until <= \(bind: now.timeIntervalSince1970)
                   OR (processed_commands.owner = \(bind: owner.worker) AND \(bind: isOnlyAttempt))
                   OR (processed_commands.owner IS NOT NULL AND processed_commands.owner <> \(bind: owner.worker) AND NOT EXISTS (
                       SELECT 1 FROM workers
                       WHERE workers.id = processed_commands.owner AND workers.alive_until > \(unsafeRaw: database.secondsSince1970))))
            RETURNING command_id
            """
        guard let cartID, database.isPostgreSQL else {
            guard try await database.raw(claim).first() != nil else { return (false, nil) }
            guard let cartID else { return (true, nil) }
            guard let cart = try await SQLCarts.cart(cartID, on: database) else { return (true, SQLCartRead(cart: nil, products: nil)) }
            let products = try await SQLCatalog.products(Set(cart.lines.map(\.sku)), on: database)
            return (true, try await recordingCharge(of: commandID, for: cart, products, as: chargeRequest, on: database))
        }
        let rows = try await database.raw(
            """
            WITH claim AS (\(claim)),
                 cart AS (SELECT \(unsafeRaw: SQLCarts.columns), carts.skus AS cart_skus FROM carts WHERE id = \(bind: cartID.rawValue))
            SELECT EXISTS (SELECT 1 FROM claim) AS claimed, cart.*, \(unsafeRaw: SQLCatalog.columns)
            FROM (SELECT 1) AS one
            LEFT JOIN cart ON EXISTS (SELECT 1 FROM claim)
            LEFT JOIN products ON products.sku = ANY (string_to_array(cart.cart_skus, ' '))
            """
        ).all().map { StoredRow($0, of: "processed_commands") }
        guard let first = rows.first, try first.value("claimed", as: Bool.self) else { return (false, nil) }
        guard try !first.isNull("cart_id") else { return (true, SQLCartRead(cart: nil, products: nil)) }
        let cart = try SQLCarts.cart(from: first)
        guard try !first.isNull("cart_skus") else { return (true, SQLCartRead(cart: cart, products: nil)) }
        var products: [SKU: Product] = [:]
        for row in rows where try !row.isNull("sku") {
            let product = try SQLCatalog.product(from: row)
            products[product.sku] = product
        }
        return (true, try await recordingCharge(of: commandID, for: cart, products, as: chargeRequest, on: database))
    }

    /// The claim's read of `cart` and `products`, with what `chargeRequest` answers for them written as
    /// the command's charge.
    ///
    /// If that write fails, the claim is given up as a failed attempt's is: on PostgreSQL it is
    /// committed already, and a retry on another worker would otherwise wait for its lease. (On SQLite
    /// the claim's whole write is undone.)
    private func recordingCharge(
        of commandID: CommandID, for cart: Cart, _ products: [SKU: Product],
        as chargeRequest: (@Sendable (Cart, [SKU: Product]) -> ChargeRecord?)?, on database: any SQLDatabase
    ) async throws -> SQLCartRead {
        guard let charge = chargeRequest?(cart, products) else { return SQLCartRead(cart: cart, products: products) }
        do {
            try await recordCharge(try StoredJSON.text(charge), for: commandID, on: database)
        } catch {
            try? await release(commandID, on: database)
            throw error
        }
        return SQLCartRead(cart: cart, products: products, recordedCharge: charge)
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
