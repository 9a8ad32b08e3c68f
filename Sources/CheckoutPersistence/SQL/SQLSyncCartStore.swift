import CheckoutDomain
import Foundation
import SQLKit

/// ``SyncCartStore`` over `processed_commands`, `carts` and `products`: on PostgreSQL one statement
/// reads and one function call records; on SQLite a sync is one entry of the writer's batch.
struct SQLSyncCartStore: SyncCartStore {
    let executor: SQLExecutor
    let commands: SQLCommandLog

    /// One row per requested product the catalog knows (at least one row), each carrying the command's
    /// outcome, the cart and whether the currency is priced. SyncCart's bound on lines keeps `skus`
    /// within one `IN` list.
    func snapshot(for commandID: CommandID, cart cartID: CartID, currency: CurrencyCode, skus: Set<SKU>) async throws -> SyncCartSnapshot {
        try Self.checkBinds(skus)
        return try await executor.read("reading cart \(cartID) for command \(commandID)") { [commands] database in
            try await Self.snapshot(for: commandID, cart: cartID, currency: currency, skus: skus, kind: commands.kind, on: database)
        }
    }

    /// Records the outcome first: its row lock makes a concurrent delivery of the same command wait,
    /// and then find the outcome. A rejection is that one statement, outside a transaction; on
    /// PostgreSQL a synced cart is one call too (`checkout_record_sync`, ``Migrations/cartSKUs``).
    /// An id an order holds makes the outcome's insert fail (``SQLCommandLog/idIndex``), and nothing changes.
    func record(_ outcome: SyncCartOutcome, digest: CommandDigest?, for commandID: CommandID) async throws -> SyncCartRecordResult {
        guard case .synced(let synced) = outcome else {
            return try await executor.autocommit("recording the outcome of command \(commandID)") { [commands] database in
                try await Self.recordOutsideATransaction(outcome, digest: digest, for: commandID, commands: commands, on: database)
            }
        }
        let cart = synced.cart
        let context = "saving cart \(cart.id) at version \(cart.version)"
        if executor.engine.hasStoredFunctions {
            return try await executor.autocommit(context) { [commands] database in
                try await Self.recordOutsideATransaction(outcome, digest: digest, for: commandID, commands: commands, on: database)
            }
        }
        return try await executor.write(context) { [commands] database in
            try await Self.record(outcome, digest: digest, for: commandID, commands: commands, on: database)
        }
    }

    /// On PostgreSQL the snapshot and then the record on one connection, in one call of the executor
    /// (one lease, one hop to the connection's loop and back), two round trips that hold no lock
    /// between; on SQLite one entry of the writer's batch, which reads with the writer's warm pages
    /// (a reader's are cold after every write) and keeps the read off the caller's thread.
    func sync(
        for commandID: CommandID, cart cartID: CartID, currency: CurrencyCode, skus: Set<SKU>, digest: CommandDigest?,
        decide: @escaping @Sendable (SyncCartSnapshot) -> SyncCartOutcome
    ) async throws -> SyncCartRecordResult {
        try Self.checkBinds(skus)
        let context = "syncing cart \(cartID) for command \(commandID)"
        if executor.engine.hasStoredFunctions {
            return try await executor.autocommit(context) { [commands] database in
                let snapshot = try await Self.snapshot(
                    for: commandID, cart: cartID, currency: currency, skus: skus, kind: commands.kind, on: database)
                if let recorded = snapshot.recorded {
                    return .alreadyRecorded(recorded)
                }
                return try await Self.recordOutsideATransaction(
                    decide(snapshot), digest: digest, for: commandID, commands: commands, on: database)
            }
        }
        return try await executor.write(context) { [commands] database in
            let snapshot = try await Self.snapshot(
                for: commandID, cart: cartID, currency: currency, skus: skus, kind: commands.kind, on: database)
            if let recorded = snapshot.recorded {
                return .rollback(.alreadyRecorded(recorded))
            }
            return try await Self.record(decide(snapshot), digest: digest, for: commandID, commands: commands, on: database)
        }
    }

    private static func checkBinds(_ skus: Set<SKU>) throws {
        guard skus.count <= SQLLimits.bindsPerStatement else {
            throw PersistenceError(
                code: .databaseFailure, context: "reading \(skus.count) products in one statement, over \(SQLLimits.bindsPerStatement)")
        }
    }

    private static func snapshot(
        for commandID: CommandID, cart cartID: CartID, currency: CurrencyCode, skus: Set<SKU>, kind: String, on database: any SQLDatabase
    ) async throws -> SyncCartSnapshot {
        let products: SQLQueryString = skus.isEmpty ? "1 = 0" : "products.sku IN (\(binds: skus.map(\.rawValue)))"
        let rows = try await database.raw(
            """
            SELECT processed_commands.outcome AS command_outcome, processed_commands.digest AS command_digest,
                   \(unsafeRaw: SQLCarts.columns),
                   EXISTS (SELECT 1 FROM products WHERE currency = \(bind: currency.rawValue)) AS priced,
                   \(unsafeRaw: SQLCatalog.columns)
            FROM (SELECT 1 AS request) AS request
            LEFT JOIN processed_commands ON processed_commands.kind = \(bind: kind)
                AND processed_commands.command_id = \(bind: commandID.rawValue) AND processed_commands.outcome IS NOT NULL
            LEFT JOIN carts ON carts.id = \(bind: cartID.rawValue)
            LEFT JOIN products ON \(products)
            """
        ).all().map { StoredRow($0, of: "processed_commands, carts and products") }
        guard let first = rows.first else {
            throw PersistenceError(code: .unreadableRow, context: "reading cart \(cartID): the statement returned no row")
        }
        var found: [SKU: Product] = [:]
        for row in rows where try !row.isNull("sku") {
            let product = try SQLCatalog.product(from: row)
            found[product.sku] = product
        }
        return SyncCartSnapshot(
            recorded: try first.isNull("command_outcome")
                ? nil
                : RecordedOutcome(
                    try first.json("command_outcome"),
                    digest: try first.value("command_digest", as: String?.self).map(CommandDigest.init)
                ),
            cart: try first.isNull("cart_id") ? nil : SQLCarts.cart(from: first),
            isCurrencyPriced: try first.value("priced"),
            products: found
        )
    }

    /// ``record(_:digest:for:)`` in statements: a rejection's is one, atomic on its own; a synced
    /// cart's are run in a transaction, which the answer says to commit or undo.
    private static func record(
        _ outcome: SyncCartOutcome, digest: CommandDigest?, for commandID: CommandID, commands: SQLCommandLog, on database: any SQLDatabase
    ) async throws -> TransactionEnd<SyncCartRecordResult> {
        let recorded = try await commands.unlessAnotherKindHolds(commandID, on: database) {
            try await commands.record(outcome, digest: digest, for: commandID, on: database)
        }
        guard let recorded else { return .rollback(.usedByAnotherCommand) }
        if let recorded {
            return .rollback(.alreadyRecorded(recorded))
        }
        if case .synced(let synced) = outcome {
            let cart = synced.cart
            guard try await SQLCarts.write(cart, replacing: cart.version - 1, on: database) else {
                let current = try await database.raw("SELECT version FROM carts WHERE id = \(bind: cart.id.rawValue)").first()
                return .rollback(.versionConflict(currentVersion: try current.map { try StoredRow($0, of: "carts").value("version") } ?? 0))
            }
        }
        return .commit(.recorded(outcome))
    }

    /// ``record(_:digest:for:)`` in one statement, each atomic on its own: a rejection's outcome, or on
    /// PostgreSQL a synced cart's call of `checkout_record_sync` (``recordInOneCall(_:digest:for:commands:on:)``).
    private static func recordOutsideATransaction(
        _ outcome: SyncCartOutcome, digest: CommandDigest?, for commandID: CommandID, commands: SQLCommandLog, on database: any SQLDatabase
    ) async throws -> SyncCartRecordResult {
        guard case .synced(let synced) = outcome else {
            return try await record(outcome, digest: digest, for: commandID, commands: commands, on: database).result
        }
        return try await recordInOneCall(synced, digest: digest, for: commandID, commands: commands, on: database)
    }

    /// A synced cart's ``record(_:digest:for:)`` as one call of `checkout_record_sync`.
    private static func recordInOneCall(
        _ synced: SyncedCart, digest: CommandDigest?, for commandID: CommandID, commands: SQLCommandLog, on database: any SQLDatabase
    ) async throws -> SyncCartRecordResult {
        try await commands.unlessAnotherKindHolds(commandID, on: database) {
            try await callRecordSync(synced, digest: digest, for: commandID, kind: commands.kind, on: database)
        } ?? .usedByAnotherCommand
    }

    private static func callRecordSync(
        _ synced: SyncedCart, digest: CommandDigest?, for commandID: CommandID, kind: String, on database: any SQLDatabase
    ) async throws -> SyncCartRecordResult {
        let outcome = SyncCartOutcome.synced(cart: synced)
        let cart = synced.cart
        let row = try await database.raw(
            """
            SELECT result, current_version, recorded_outcome, recorded_digest FROM checkout_record_sync(
                \(bind: kind), \(bind: commandID.rawValue), \(bind: try StoredJSON.text(outcome)), \(bind: digest?.rawValue),
                \(bind: Date().timeIntervalSince1970), \(bind: cart.id.rawValue), \(bind: cart.customerID.rawValue), \(bind: cart.version),
                \(bind: cart.currency.rawValue), \(bind: try StoredJSON.text(cart.lines)), \(bind: cart.isCheckedOut),
                \(bind: cart.syncedAt.timeIntervalSince1970), \(bind: SQLCarts.skus(of: cart)))
            """
        ).first().map { StoredRow($0, of: "checkout_record_sync") }
        switch try row?.value("result", as: String.self) {
        case "recorded":
            return .recorded(outcome)
        case "version-conflict":
            return .versionConflict(currentVersion: try row!.value("current_version"))
        case "already-recorded":
            return .alreadyRecorded(
                RecordedOutcome(
                    try row!.json("recorded_outcome"),
                    digest: try row!.value("recorded_digest", as: String?.self).map(CommandDigest.init)
                ))
        case let result:
            throw PersistenceError(
                code: .unreadableRow, context: "checkout_record_sync answered \(result ?? "no row") for command \(commandID)")
        }
    }
}
