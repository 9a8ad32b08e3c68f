import CheckoutDomain
import SQLKit

/// ``SyncCartStore`` over `processed_commands`, `carts` and `products`: on PostgreSQL one statement
/// reads and one function call records, for every sync of a batch at once; on SQLite a sync is one
/// entry of the writer's batch.
struct SQLSyncCartStore: SyncCartStore {
    let executor: SQLExecutor
    let commands: SQLCommandLog
    /// On PostgreSQL, the syncs that arrive while others are in the database, run together; nil on
    /// SQLite, whose writer batches its own way.
    private let batcher: SQLBatcher<SQLSyncRequest, SyncCartRecordResult>?

    init(executor: SQLExecutor, commands: SQLCommandLog) {
        self.executor = executor
        self.commands = commands
        batcher = executor.batcher { requests in await Self.sync(requests, executor: executor, commands: commands) }
    }

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

    /// On PostgreSQL a batch's (``SQLBatcher``): the snapshots of all its syncs in one read, then all
    /// their synced carts recorded in one statement (``PostgresSyncBatch``), on one connection, two
    /// round trips that hold no lock between. On SQLite one entry of the writer's batch, which reads
    /// with the writer's warm pages (a reader's are cold after every write) and keeps the read off the
    /// caller's thread.
    func sync(
        for commandID: CommandID, cart cartID: CartID, currency: CurrencyCode, skus: Set<SKU>, digest: CommandDigest?,
        decide: @escaping @Sendable (SyncCartSnapshot) -> SyncCartOutcome
    ) async throws -> SyncCartRecordResult {
        try Self.checkBinds(skus)
        if let batcher {
            return try await batcher.submit(
                SQLSyncRequest(commandID: commandID, cartID: cartID, currency: currency, skus: skus, digest: digest, decide: decide))
        }
        return try await executor.write("syncing cart \(cartID) for command \(commandID)") { [commands] database in
            let snapshot = try await Self.snapshot(
                for: commandID, cart: cartID, currency: currency, skus: skus, kind: commands.kind, on: database)
            if let recorded = snapshot.recorded {
                return .rollback(.alreadyRecorded(recorded))
            }
            return try await Self.record(decide(snapshot), digest: digest, for: commandID, commands: commands, on: database)
        }
    }

    /// A batch of syncs on PostgreSQL (``SQLBatchAnswers``): several run together, and those whose
    /// statement failed for another reason than the database being away run alone, to meet what
    /// failed on their own.
    private static func sync(
        _ requests: [SQLSyncRequest], executor: SQLExecutor, commands: SQLCommandLog
    ) async -> [Result<SyncCartRecordResult, any Error>] {
        await SQLBatchAnswers.of(requests.count) {
            try await executor.autocommit("syncing \(requests.count) carts together") { database in
                try await syncTogether(requests, commands: commands, on: database)
            }
        } alone: { index in
            try await syncAlone(requests[index], executor: executor, commands: commands)
        }
    }

    /// One sync: its snapshot, then unless the command has an outcome the record of its decision, on
    /// one connection.
    private static func syncAlone(
        _ request: SQLSyncRequest, executor: SQLExecutor, commands: SQLCommandLog
    ) async throws -> SyncCartRecordResult {
        try await executor.autocommit("syncing cart \(request.cartID) for command \(request.commandID)") { database in
            let snapshot = try await snapshot(
                for: request.commandID, cart: request.cartID, currency: request.currency, skus: request.skus, kind: commands.kind,
                on: database)
            if let recorded = snapshot.recorded {
                return .alreadyRecorded(recorded)
            }
            return try await recordOutsideATransaction(
                request.decide(snapshot), digest: request.digest, for: request.commandID, commands: commands, on: database)
        }
    }

    /// Several syncs: one read for all; each decides; a rejection is recorded on its own (rare, and
    /// its failure is its own); the synced carts in one statement, in the order of their carts, so
    /// that batches sharing carts, also other workers', lock them in one order. Nil for a sync to run
    /// alone: its cart's statement failed, and not for the database being away.
    private static func syncTogether(
        _ requests: [SQLSyncRequest], commands: SQLCommandLog, on database: any SQLDatabase
    ) async throws -> [Result<SyncCartRecordResult, any Error>?] {
        let snapshots = try await PostgresSyncBatch.snapshots(requests, kind: commands.kind, on: database)
        var answers = [Result<SyncCartRecordResult, any Error>?](repeating: nil, count: requests.count)
        var synced: [(index: Int, commandID: CommandID, cart: SyncedCart, digest: CommandDigest?)] = []
        for (index, (request, snapshot)) in zip(requests, snapshots).enumerated() {
            if let recorded = snapshot.recorded {
                answers[index] = .success(.alreadyRecorded(recorded))
                continue
            }
            let outcome = request.decide(snapshot)
            guard case .synced(let cart) = outcome else {
                answers[index] = await Result {
                    try await recordOutsideATransaction(
                        outcome, digest: request.digest, for: request.commandID, commands: commands, on: database)
                }.mapError { DatabaseFault.classify($0, context: "recording the outcome of command \(request.commandID)") }
                continue
            }
            synced.append((index, request.commandID, cart, request.digest))
        }
        guard !synced.isEmpty else { return answers }
        synced.sort { ($0.cart.cart.id, $0.commandID) < ($1.cart.cart.id, $1.commandID) }
        do {
            let recorded = try await PostgresSyncBatch.record(
                synced.map { ($0.commandID, $0.cart, $0.digest) }, kind: commands.kind, on: database)
            for (entry, result) in zip(synced, recorded) {
                answers[entry.index] = .success(result)
            }
        } catch {
            // The statement wrote nothing. Away, the database fails them all; otherwise they run alone.
            let fault = DatabaseFault.classify(error, context: "recording \(synced.count) synced carts together")
            if fault is RetryableError {
                for entry in synced { answers[entry.index] = .failure(fault) }
            }
        }
        return answers
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
        return try snapshot(from: rows, cart: cartID)
    }

    /// The snapshot in the rows of the read of one sync: at least one, each with a requested product
    /// the catalog knows or none, and all with the command's outcome, the cart and `priced`.
    static func snapshot(from rows: [StoredRow], cart cartID: CartID) throws -> SyncCartSnapshot {
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

    /// A synced cart's ``record(_:digest:for:)`` as one call of `checkout_record_sync`: the batch's
    /// statement (``PostgresSyncBatch/record(_:kind:on:)``) for one cart.
    private static func recordInOneCall(
        _ synced: SyncedCart, digest: CommandDigest?, for commandID: CommandID, commands: SQLCommandLog, on database: any SQLDatabase
    ) async throws -> SyncCartRecordResult {
        try await commands.unlessAnotherKindHolds(commandID, on: database) {
            try await PostgresSyncBatch.record([(commandID, synced, digest)], kind: commands.kind, on: database)[0]
        } ?? .usedByAnotherCommand
    }
}
