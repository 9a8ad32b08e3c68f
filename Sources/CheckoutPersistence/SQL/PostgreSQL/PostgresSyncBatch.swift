import CheckoutDomain
import Foundation
import SQLKit

/// The two statements of a batch of syncs on PostgreSQL: the snapshots of every sync in one read,
/// then every synced cart recorded in one call per cart of `checkout_record_sync`, all in one
/// statement and so one commit. Each sync's parameters travel as the `n`th element of arrays, and
/// its rows come back with its position. The first array of each goes through `checkout_batch`, so
/// that PostgreSQL plans each statement once (``Migrations/batchPlansKept``).
enum PostgresSyncBatch {
    /// The snapshot of each request, in order: what ``SQLSyncCartStore``'s one-sync read returns, for
    /// all at once.
    static func snapshots(_ requests: [SQLSyncRequest], kind: String, on database: any SQLDatabase) async throws -> [SyncCartSnapshot] {
        let rows = try await database.raw(
            """
            SELECT request.position, processed_commands.outcome AS command_outcome, processed_commands.digest AS command_digest,
                   \(unsafeRaw: SQLCarts.columns),
                   EXISTS (SELECT 1 FROM products AS priced WHERE priced.currency = request.currency) AS priced,
                   \(unsafeRaw: SQLCatalog.columns)
            FROM unnest(checkout_batch(\(bind: requests.map(\.commandID.rawValue))::text[]), \(bind: requests.map(\.cartID.rawValue))::text[],
                        \(bind: requests.map(\.currency.rawValue))::text[], \(bind: requests.map { $0.skus.map(\.rawValue).joined(separator: " ") })::text[])
                 WITH ORDINALITY AS request(command_id, cart_id, currency, skus, position)
            LEFT JOIN processed_commands ON processed_commands.kind = \(bind: kind)
                AND processed_commands.command_id = request.command_id AND processed_commands.outcome IS NOT NULL
            LEFT JOIN carts ON carts.id = request.cart_id
            LEFT JOIN products ON products.sku = ANY (string_to_array(request.skus, ' '))
            """
        ).all().map { StoredRow($0, of: "processed_commands, carts and products") }
        let rowsOfRequest = try rows.byPosition(count: requests.count, reading: "reading \(requests.count) carts")
        return try zip(requests, rowsOfRequest).map { request, rows in
            try SQLSyncCartStore.snapshot(from: rows, cart: request.cartID)
        }
    }

    /// Records each synced cart for its command as `checkout_record_sync` does, in the order given;
    /// also a single sync's record, as a batch of one.
    static func record(
        _ synced: [(commandID: CommandID, cart: SyncedCart, digest: CommandDigest?)], kind: String, on database: any SQLDatabase
    ) async throws -> [SyncCartRecordResult] {
        let now = Date().timeIntervalSince1970
        let carts = synced.map(\.cart.cart)
        let rows = try await database.raw(
            """
            SELECT request.position, recorded.result, recorded.current_version, recorded.recorded_outcome, recorded.recorded_digest
            FROM unnest(checkout_batch(\(bind: synced.map(\.commandID.rawValue))::text[]),
                        \(bind: try synced.map { try StoredJSON.text(SyncCartOutcome.synced(cart: $0.cart)) })::text[],
                        \(bind: synced.map { $0.digest?.rawValue ?? "" })::text[], \(bind: carts.map(\.id.rawValue))::text[],
                        \(bind: carts.map(\.customerID.rawValue))::text[], \(bind: carts.map(\.version))::int8[],
                        \(bind: carts.map(\.currency.rawValue))::text[], \(bind: try carts.map { try StoredJSON.text($0.lines) })::text[],
                        \(bind: carts.map(\.isCheckedOut))::bool[], \(bind: carts.map(\.syncedAt.timeIntervalSince1970))::float8[],
                        \(bind: carts.map(SQLCarts.skus(of:)))::text[])
                 WITH ORDINALITY AS request(command_id, outcome, digest, cart_id, customer_id, version, currency, lines, checked_out,
                                            synced_at, skus, position)
            CROSS JOIN LATERAL checkout_record_sync(
                \(bind: kind), request.command_id, request.outcome, NULLIF(request.digest, ''), \(bind: now), request.cart_id,
                request.customer_id, request.version, request.currency, request.lines, request.checked_out, request.synced_at,
                request.skus) AS recorded
            ORDER BY request.position
            """
        ).all().map { StoredRow($0, of: "checkout_record_sync") }
        guard rows.count == synced.count else {
            throw PersistenceError(
                code: .unreadableRow, context: "checkout_record_sync answered \(rows.count) rows for \(synced.count) carts")
        }
        return try zip(synced, rows).map { synced, row in
            try recordResult(of: row, for: synced.cart, commandID: synced.commandID)
        }
    }

    /// What a row of `checkout_record_sync` says of recording `synced`.
    private static func recordResult(of row: StoredRow, for synced: SyncedCart, commandID: CommandID) throws -> SyncCartRecordResult {
        switch try row.value("result", as: String.self) {
        case "recorded":
            return .recorded(.synced(cart: synced))
        case "version-conflict":
            return .versionConflict(currentVersion: try row.value("current_version"))
        case "already-recorded":
            return .alreadyRecorded(
                RecordedOutcome(
                    try row.json("recorded_outcome"),
                    digest: try row.value("recorded_digest", as: String?.self).map(CommandDigest.init)
                ))
        case let result:
            throw PersistenceError(code: .unreadableRow, context: "checkout_record_sync answered \(result) for command \(commandID)")
        }
    }
}
