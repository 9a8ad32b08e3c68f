import Foundation
import SQLKit

/// Everything a chaos run left in its database, read table by table with plain SQL, so that a
/// half-written order cannot hide behind the repositories' reading code.
struct StoreState: Sendable {
    struct StoredOrder: Sendable {
        let cart: String
        let total: Int64
        let paymentID: String
        let paymentAmount: Int64
    }

    struct StoredCart: Sendable {
        let version: Int
        let checkedOut: Bool
    }

    /// Each recorded command's outcome by command id: `placed`, `synced`, `rejected`, or nil for a
    /// claim without an outcome (a command a worker took and never finished).
    var outcomes: [String: String?] = [:]
    var orders: [String: StoredOrder] = [:]
    /// Order ids that have lines.
    var ordersWithLines: Set<String> = []
    /// The quantities of all order lines, summed by SKU.
    var orderedQuantity: [String: Int] = [:]
    var stock: [String: Int] = [:]
    var carts: [String: StoredCart] = [:]

    static func read(from database: any SQLDatabase) async throws -> StoreState {
        var state = StoreState()
        for row in try await database.raw("SELECT command_id, outcome FROM processed_commands").all() {
            let outcome = try row.decodeNil(column: "outcome") ? nil : try row.decode(column: "outcome", as: String.self)
            state.outcomes[try row.decode(column: "command_id", as: String.self)] = outcome.map(Self.outcomeCase)
        }
        for row in try await database.raw("SELECT id, cart_id, total, payment_id, payment_amount FROM orders").all() {
            state.orders[try row.decode(column: "id", as: String.self)] = StoredOrder(
                cart: try row.decode(column: "cart_id", as: String.self),
                total: try row.decode(column: "total", as: Int64.self),
                paymentID: try row.decode(column: "payment_id", as: String.self),
                paymentAmount: try row.decode(column: "payment_amount", as: Int64.self)
            )
        }
        for row in try await database.raw("SELECT DISTINCT order_id FROM order_lines").all() {
            state.ordersWithLines.insert(try row.decode(column: "order_id", as: String.self))
        }
        for row in try await database.raw("SELECT sku, CAST(SUM(quantity) AS BIGINT) AS quantity FROM order_lines GROUP BY sku").all() {
            state.orderedQuantity[try row.decode(column: "sku", as: String.self)] = try row.decode(column: "quantity", as: Int.self)
        }
        for row in try await database.raw("SELECT sku, stock FROM products").all() {
            state.stock[try row.decode(column: "sku", as: String.self)] = try row.decode(column: "stock", as: Int.self)
        }
        for row in try await database.raw("SELECT id, version, checked_out FROM carts").all() {
            state.carts[try row.decode(column: "id", as: String.self)] = StoredCart(
                version: try row.decode(column: "version", as: Int.self),
                checkedOut: try row.decode(column: "checked_out", as: Bool.self)
            )
        }
        return state
    }

    /// The case of a stored outcome, its JSON's only key (`{"placed":{…}}`).
    private static func outcomeCase(_ json: String) -> String {
        let object = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any]
        return object?.keys.first ?? "unreadable"
    }
}
