import CheckoutDomain
import Foundation
import SQLKit

/// Orders placed on PostgreSQL in one statement, and so one commit: `checkout_lock_for_orders` locks
/// every cart of the batch, then every product, each in key order (``Migrations/ordersTogether``);
/// then `checkout_place_order` places each order in turn (``Migrations/oneCallWrites``), all or
/// nothing for each. Each order's fields travel as the `n`th element of arrays, its stock and lines as
/// a range of flat arrays, and its row comes back with its position. The first array goes through
/// `checkout_batch`, so that PostgreSQL plans the statement once (``Migrations/batchPlansKept``). A
/// single order runs the same statement, for one.
enum PostgresOrderBatch {
    /// What placing each order answered, in order: a result, or the failure of an order whose id is taken.
    static func place(
        _ placements: [SQLOrderPlacement], kind: String, on database: any SQLDatabase
    ) async throws -> [Result<OrderPlacementResult, any Error>] {
        let orders = placements.map(\.order)
        let stock = placements.map(\.wantedStock)
        let stockRanges = ranges(of: stock.map(\.count))
        let lineRanges = ranges(of: orders.map(\.lines.count))
        let allStock = stock.flatMap { $0 }
        let allLines = orders.flatMap(\.lines)
        // The statement's top node checks the lock before it runs a single call: a sub-select without
        // columns of the row is a filter run once.
        let rows = try await database.raw(
            """
            SELECT request.position, placed.result, placed.short_skus, placed.recorded_outcome
            FROM unnest(checkout_batch(\(bind: placements.map(\.commandID.rawValue))::text[]), \(bind: try placements.map { try StoredJSON.text($0.outcome) })::text[],
                        \(bind: orders.map(\.id.rawValue))::text[], \(bind: orders.map(\.cartID.rawValue))::text[],
                        \(bind: placements.map(\.cartVersion))::int8[], \(bind: orders.map(\.customerID.rawValue))::text[],
                        \(bind: orders.map(\.total.currency.rawValue))::text[], \(bind: orders.map(\.total.minorUnits))::int8[],
                        \(bind: orders.map(\.payment.id.rawValue))::text[], \(bind: orders.map(\.payment.amount.minorUnits))::int8[],
                        \(bind: orders.map(\.placedAt.timeIntervalSince1970))::float8[],
                        \(bind: stockRanges.map(\.first))::int4[], \(bind: stockRanges.map(\.last))::int4[],
                        \(bind: lineRanges.map(\.first))::int4[], \(bind: lineRanges.map(\.last))::int4[])
                 WITH ORDINALITY AS request(command_id, outcome, order_id, cart_id, cart_version, customer_id, currency, total,
                                            payment_id, payment_amount, placed_at, stock_first, stock_last, line_first, line_last,
                                            position)
            CROSS JOIN LATERAL checkout_place_order(
                \(bind: kind), request.command_id, request.outcome, \(bind: Date().timeIntervalSince1970), request.order_id,
                request.cart_id, request.cart_version, request.customer_id, request.currency, request.total, request.payment_id,
                request.payment_amount, request.placed_at,
                (\(bind: allStock.map(\.key.rawValue))::text[])[request.stock_first:request.stock_last],
                (\(bind: allStock.map(\.value))::int8[])[request.stock_first:request.stock_last],
                (\(bind: allLines.map(\.sku.rawValue))::text[])[request.line_first:request.line_last],
                (\(bind: allLines.map(\.quantity))::int8[])[request.line_first:request.line_last],
                (\(bind: allLines.map(\.unitPrice.minorUnits))::int8[])[request.line_first:request.line_last],
                (\(bind: allLines.map(\.lineTotal.minorUnits))::int8[])[request.line_first:request.line_last]) AS placed
            WHERE (SELECT checkout_lock_for_orders(
                \(bind: orders.map(\.cartID.rawValue))::text[], \(bind: allStock.map(\.key.rawValue))::text[]))
            """
        ).all().map { StoredRow($0, of: "checkout_place_order") }
        let rowsOfOrder = try rows.byPosition(count: placements.count, reading: "placing \(placements.count) orders")
        return try zip(placements, rowsOfOrder).map { placement, rows in
            guard rows.count == 1 else {
                throw PersistenceError(
                    code: .unreadableRow, context: "checkout_place_order answered \(rows.count) rows for order \(placement.order.id)")
            }
            return Result { try result(of: rows[0], placing: placement.order) }
        }
    }

    /// What a row of `checkout_place_order` says of placing `order`.
    private static func result(of row: StoredRow, placing order: Order) throws -> OrderPlacementResult {
        switch try row.value("result", as: String.self) {
        case "placed":
            return .placed
        case "cart-changed":
            return .cartChanged
        case "out-of-stock":
            let short = Set(try row.value("short_skus", as: [String].self))
            return .outOfStock(order.lines.map(\.sku).filter { short.contains($0.rawValue) })
        case "already-recorded":
            return .commandAlreadyHandled(try row.json("recorded_outcome"))
        case "duplicate-order":
            throw PersistenceError(code: .duplicateOrder, context: "placing order \(order.id)")
        case let result:
            throw PersistenceError(code: .unreadableRow, context: "checkout_place_order answered \(result) for order \(order.id)")
        }
    }

    /// Consecutive ranges of 1-based positions (PostgreSQL's array subscripts), one of each count: an
    /// empty count gives an empty range (`first` past `last`), which slices an empty array.
    private static func ranges(of counts: [Int]) -> [(first: Int, last: Int)] {
        var next = 1
        return counts.map { count in
            defer { next += count }
            return (next, next + count - 1)
        }
    }
}
