import CheckoutDomain
import Foundation
import SQLKit

/// ``OrderRepository`` over `orders` and `order_lines`, taking stock from `products` and checking out
/// the cart in the same transaction.
struct SQLOrders: OrderRepository {
    let executor: SQLExecutor
    let commands: SQLCommandLog

    /// Locks in a fixed order, outcome row, cart row, then product rows, so that two orders sharing
    /// products do not deadlock (and PostgreSQL's deadlock error is retried if one ever did). Every
    /// write is guarded (`version`, `checked_out`, `stock >= qty`), so a concurrent order that got
    /// there first turns this one into an answer, not an oversale. Stock and lines are one statement
    /// each, whatever the number of lines: every statement is a round trip.
    func place(
        _ order: Order,
        fromCartVersion cartVersion: Int,
        recording outcome: PlaceOrderOutcome,
        for commandID: CommandID
    ) async throws -> OrderPlacementResult {
        // The outcome is recorded here, or a rejection after it, or the attempt fails: either way it ends.
        defer { commands.endAttempt(commandID) }
        if executor.engine.hasStoredFunctions {
            return try await executor.autocommit("placing order \(order.id)") { [commands] database in
                try await Self.placeInOneCall(
                    order, fromCartVersion: cartVersion, recording: outcome, for: commandID, kind: commands.kind, on: database)
            }
        }
        return try await executor.write("placing order \(order.id)") { [commands] database in
            if let recorded = try await commands.record(outcome, for: commandID, on: database) {
                return .rollback(.commandAlreadyHandled(recorded.outcome))
            }
            let checkedOut = try await database.raw(
                """
                UPDATE carts SET checked_out = TRUE
                WHERE id = \(bind: order.cartID.rawValue) AND version = \(bind: cartVersion) AND checked_out = FALSE
                RETURNING id
                """
            ).first()
            guard checkedOut != nil else { return .rollback(.cartChanged) }
            let short = try await Self.takeStock(of: order.lines, on: database)
            guard short.isEmpty else {
                return .rollback(.outOfStock(order.lines.map(\.sku).filter(short.contains)))
            }
            try await Self.insert(order, on: database)
            return .commit(.placed)
        }
    }

    /// ``place(_:fromCartVersion:recording:for:)`` as one call of `checkout_place_order` (``Migrations/oneCallWrites``).
    private static func placeInOneCall(
        _ order: Order,
        fromCartVersion cartVersion: Int,
        recording outcome: PlaceOrderOutcome,
        for commandID: CommandID,
        kind: String,
        on database: any SQLDatabase
    ) async throws -> OrderPlacementResult {
        let stock = wantedStock(of: order.lines)
        let row = try await database.raw(
            """
            SELECT result, short_skus, recorded_outcome FROM checkout_place_order(
                \(bind: kind), \(bind: commandID.rawValue), \(bind: try StoredJSON.text(outcome)), \(bind: Date().timeIntervalSince1970),
                \(bind: order.id.rawValue), \(bind: order.cartID.rawValue), \(bind: cartVersion), \(bind: order.customerID.rawValue),
                \(bind: order.total.currency.rawValue), \(bind: order.total.minorUnits), \(bind: order.payment.id.rawValue),
                \(bind: order.payment.amount.minorUnits), \(bind: order.placedAt.timeIntervalSince1970),
                \(bind: stock.map(\.key.rawValue)), \(bind: stock.map(\.value)),
                \(bind: order.lines.map(\.sku.rawValue)), \(bind: order.lines.map(\.quantity)),
                \(bind: order.lines.map(\.unitPrice.minorUnits)), \(bind: order.lines.map(\.lineTotal.minorUnits)))
            """
        ).first().map { StoredRow($0, of: "checkout_place_order") }
        switch try row?.value("result", as: String.self) {
        case "placed":
            return .placed
        case "cart-changed":
            return .cartChanged
        case "out-of-stock":
            let short = Set(try row!.value("short_skus", as: [String].self))
            return .outOfStock(order.lines.map(\.sku).filter { short.contains($0.rawValue) })
        case "already-recorded":
            return .commandAlreadyHandled(try row!.json("recorded_outcome"))
        case "duplicate-order":
            throw PersistenceError(code: .duplicateOrder, context: "placing order \(order.id)")
        case let result:
            throw PersistenceError(
                code: .unreadableRow, context: "checkout_place_order answered \(result ?? "no row") for order \(order.id)")
        }
    }

    /// The quantity each SKU of `lines` takes from stock, in SKU order.
    private static func wantedStock(of lines: [CartLine]) -> [(key: SKU, value: Int)] {
        Dictionary(lines.map { ($0.sku, $0.quantity) }, uniquingKeysWith: +).sorted { $0.key < $1.key }
    }

    /// Order ids are the ids of the commands that place them, so an existing one means a defect: the
    /// transaction fails as a whole rather than leave an order with another command's lines.
    private static func insert(_ order: Order, on database: any SQLDatabase) async throws {
        let inserted = try await database.raw(
            """
            INSERT INTO orders (id, cart_id, customer_id, currency, total, payment_id, payment_amount, placed_at)
            VALUES (\(bind: order.id.rawValue), \(bind: order.cartID.rawValue), \(bind: order.customerID.rawValue),
                    \(bind: order.total.currency.rawValue), \(bind: order.total.minorUnits), \(bind: order.payment.id.rawValue),
                    \(bind: order.payment.amount.minorUnits), \(bind: order.placedAt.timeIntervalSince1970))
            ON CONFLICT (id) DO NOTHING
            RETURNING id
            """
        ).first()
        guard inserted != nil else {
            throw PersistenceError(code: .duplicateOrder, context: "placing order \(order.id)")
        }
        var lines: SQLQueryString = "INSERT INTO order_lines (order_id, line_number, sku, quantity, unit_price, line_total) VALUES "
        for (number, line) in order.lines.enumerated() {
            lines.appendLiteral(number == 0 ? "" : ", ")
            lines.appendInterpolation(
                """
                (\(bind: order.id.rawValue), \(bind: number), \(bind: line.sku.rawValue), \(bind: line.quantity), \
                \(bind: line.unitPrice.minorUnits), \(bind: line.lineTotal.minorUnits))
                """ as SQLQueryString)
        }
        try await database.raw(lines).run()
    }

    /// Takes each line's quantity from its product's stock in one statement, where enough is left;
    /// returns the SKUs that were short (the caller rolls back then).
    private static func takeStock(of lines: [CartLine], on database: any SQLDatabase) async throws -> Set<SKU> {
        let wanted = wantedStock(of: lines)
        guard !wanted.isEmpty else { return [] }
        var quantity: SQLQueryString = "CASE sku"
        for (sku, count) in wanted {
            quantity.appendInterpolation(" WHEN \(bind: sku.rawValue) THEN \(bind: count)" as SQLQueryString)
        }
        quantity.appendLiteral(" END")
        let taken = try await database.raw(
            """
            UPDATE products SET stock = stock - \(quantity)
            WHERE sku IN (\(binds: wanted.map(\.key.rawValue))) AND stock >= \(quantity)
            RETURNING sku
            """
        ).all()
        let takenSKUs = try Set(taken.map { try StoredRow($0, of: "products").value("sku", as: String.self) })
        return Set(wanted.map(\.key).filter { !takenSKUs.contains($0.rawValue) })
    }
}
