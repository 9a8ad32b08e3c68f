import CheckoutDomain
import Foundation
import SQLKit

/// ``CartRepository`` over the `carts` table; the version column is the optimistic lock.
struct SQLCarts: CartRepository {
    let executor: SQLExecutor
    let commands: SQLCommandLog

    func cart(_ id: CartID) async throws -> Cart? {
        try await executor.read("loading cart \(id)") { database in
            try await database.raw("""
                SELECT id, customer_id, version, currency, lines, checked_out, synced_at FROM carts WHERE id = \(bind: id.rawValue)
                """).first().map { try Self.cart(from: StoredRow($0, of: "carts")) }
        }
    }

    /// Records the outcome first: its row lock makes a concurrent attempt of the same command wait,
    /// and then find the outcome. The cart is written only if it is still at `expectedVersion` and not
    /// checked out; a sync racing an order gets `versionConflict` rather than reviving the cart.
    func save(
        _ cart: Cart,
        replacing expectedVersion: Int,
        recording outcome: SyncCartOutcome,
        for commandID: CommandID
    ) async throws -> CartSaveResult {
        try await executor.write("saving cart \(cart.id) at version \(cart.version)") { [commands] database in
            if let recorded = try await commands.record(outcome, for: commandID, on: database) {
                return .rollback(.commandAlreadyHandled(recorded))
            }
            guard try await Self.write(cart, replacing: expectedVersion, on: database) else {
                let current = try await database.raw("SELECT version FROM carts WHERE id = \(bind: cart.id.rawValue)").first()
                return .rollback(.versionConflict(currentVersion: try current.map { try StoredRow($0, of: "carts").value("version") } ?? 0))
            }
            return .commit(.saved)
        }
    }

    private static func write(_ cart: Cart, replacing expectedVersion: Int, on database: any SQLDatabase) async throws -> Bool {
        let lines = try StoredJSON.text(cart.lines)
        let syncedAt = cart.syncedAt.timeIntervalSince1970
        if expectedVersion == 0 {
            return try await database.raw("""
                INSERT INTO carts (id, customer_id, version, currency, lines, checked_out, synced_at)
                VALUES (\(bind: cart.id.rawValue), \(bind: cart.customerID.rawValue), \(bind: cart.version), \(bind: cart.currency.rawValue),
                        \(bind: lines), \(bind: cart.isCheckedOut), \(bind: syncedAt))
                ON CONFLICT (id) DO NOTHING
                RETURNING id
                """).first() != nil
        }
        return try await database.raw("""
            UPDATE carts SET customer_id = \(bind: cart.customerID.rawValue), version = \(bind: cart.version),
                currency = \(bind: cart.currency.rawValue), lines = \(bind: lines), checked_out = \(bind: cart.isCheckedOut),
                synced_at = \(bind: syncedAt)
            WHERE id = \(bind: cart.id.rawValue) AND version = \(bind: expectedVersion) AND checked_out = FALSE
            RETURNING id
            """).first() != nil
    }

    private static func cart(from row: StoredRow) throws -> Cart {
        let currency = try row.currency("currency")
        do {
            return try Cart(
                id: row.identifier("id"),
                customerID: row.identifier("customer_id"),
                version: row.value("version"),
                currency: currency,
                lines: row.json("lines"),
                isCheckedOut: row.value("checked_out"),
                syncedAt: row.date("synced_at")
            )
        } catch let error as MoneyError {
            throw PersistenceError(code: .unreadableRow, context: "reading carts.lines", underlying: error)
        }
    }
}
