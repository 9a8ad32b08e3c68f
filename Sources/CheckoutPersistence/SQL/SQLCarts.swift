import CheckoutDomain
import Foundation
import SQLKit

/// ``CartRepository`` over the `carts` table.
struct SQLCarts: CartRepository {
    let executor: SQLExecutor

    /// The columns ``cart(from:)`` reads, named apart from other tables' in a joined read.
    static let columns = """
        carts.id AS cart_id, carts.customer_id AS cart_customer_id, carts.version AS cart_version, carts.currency AS cart_currency,
        carts.lines AS cart_lines, carts.checked_out AS cart_checked_out, carts.synced_at AS cart_synced_at
        """

    func cart(_ id: CartID) async throws -> Cart? {
        try await executor.read("loading cart \(id)") { database in
            try await Self.cart(id, on: database)
        }
    }

    static func cart(_ id: CartID, on database: any SQLDatabase) async throws -> Cart? {
        try await database.raw("SELECT \(unsafeRaw: columns) FROM carts WHERE id = \(bind: id.rawValue)").first()
            .map { try cart(from: StoredRow($0, of: "carts")) }
    }

    /// Stores `cart` if the stored one is at `expectedVersion` (0: there is none) and not checked out;
    /// returns whether it did. SQLite's way, which leaves `skus` empty: its claim reads the products of
    /// the cart's lines on the writer.
    static func write(_ cart: Cart, replacing expectedVersion: Int, on database: any SQLDatabase) async throws -> Bool {
        let lines = try StoredJSON.text(cart.lines)
        let syncedAt = cart.syncedAt.timeIntervalSince1970
        if expectedVersion == 0 {
            return try await database.raw(
                """
                INSERT INTO carts (id, customer_id, version, currency, lines, checked_out, synced_at)
                VALUES (\(bind: cart.id.rawValue), \(bind: cart.customerID.rawValue), \(bind: cart.version), \(bind: cart.currency.rawValue),
                        \(bind: lines), \(bind: cart.isCheckedOut), \(bind: syncedAt))
                ON CONFLICT (id) DO NOTHING
                RETURNING id
                """
            ).first() != nil
        }
        return try await database.raw(
            """
            UPDATE carts SET customer_id = \(bind: cart.customerID.rawValue), version = \(bind: cart.version),
                currency = \(bind: cart.currency.rawValue), lines = \(bind: lines), checked_out = \(bind: cart.isCheckedOut),
                synced_at = \(bind: syncedAt)
            WHERE id = \(bind: cart.id.rawValue) AND version = \(bind: expectedVersion) AND checked_out = FALSE
            RETURNING id
            """
        ).first() != nil
    }

    /// `carts.skus` of `cart` (``Migrations/cartSKUs``): its lines' SKUs, separated by spaces.
    static func skus(of cart: Cart) -> String {
        cart.lines.map(\.sku.rawValue).joined(separator: " ")
    }

    /// The cart in a row holding ``columns``.
    static func cart(from row: StoredRow) throws -> Cart {
        let currency = try row.currency("cart_currency")
        do {
            return try Cart(
                id: row.identifier("cart_id"),
                customerID: row.identifier("cart_customer_id"),
                version: row.value("cart_version"),
                currency: currency,
                lines: row.cartLines("cart_lines"),
                isCheckedOut: row.value("cart_checked_out"),
                syncedAt: row.date("cart_synced_at")
            )
        } catch let error as MoneyError {
            throw PersistenceError(code: .unreadableRow, context: "reading carts.lines", underlying: error)
        }
    }
}
