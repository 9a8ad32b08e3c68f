import CheckoutDomain
import Foundation
import SQLKit

/// ``OrderRepository`` over `orders` and `order_lines`, taking stock from `products` and checking out
/// the cart in the same transaction.
struct SQLOrders: OrderRepository {
    let executor: SQLExecutor
    let commands: SQLCommandLog
    /// On PostgreSQL, the orders that arrive while others are in the database, placed together
    /// (``PostgresOrderBatch``); nil on SQLite, whose writer batches its own way.
    private let batcher: SQLBatcher<SQLOrderPlacement, OrderPlacementResult>?

    init(executor: SQLExecutor, commands: SQLCommandLog) {
        self.executor = executor
        self.commands = commands
        batcher = executor.batcher { placements in await Self.place(batch: placements, executor: executor, kind: commands.kind) }
    }

    /// Locks in a fixed order, outcome row, cart row, then product rows, so that two orders sharing
    /// products do not deadlock (and PostgreSQL's deadlock error is retried if one ever did); on
    /// PostgreSQL a batch locks all its carts, then all its products first. Every write is guarded
    /// (`version`, `checked_out`, `stock >= qty`), so a concurrent order that got there first turns
    /// this one into an answer, not an oversale. On SQLite stock and lines are one statement each,
    /// whatever the number of lines.
    func place(
        _ order: Order,
        fromCartVersion cartVersion: Int,
        recording outcome: PlaceOrderOutcome,
        for commandID: CommandID
    ) async throws -> OrderPlacementResult {
        // The outcome is recorded here, or a rejection after it, or the attempt fails: either way it ends.
        defer { commands.endAttempt(commandID) }
        let placement = SQLOrderPlacement(order: order, cartVersion: cartVersion, outcome: outcome, commandID: commandID)
        if let batcher {
            return try await batcher.submit(placement)
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
            let short = try await Self.takeStock(placement.wantedStock, on: database)
            guard short.isEmpty else {
                return .rollback(.outOfStock(order.lines.map(\.sku).filter(short.contains)))
            }
            try await Self.insert(order, on: database)
            return .commit(.placed)
        }
    }

    /// A batch of orders on PostgreSQL (``SQLBatchAnswers``), placed in one statement; a single order
    /// runs that statement alone.
    private static func place(
        batch placements: [SQLOrderPlacement], executor: SQLExecutor, kind: String
    ) async -> [Result<OrderPlacementResult, any Error>] {
        await SQLBatchAnswers.of(placements.count) {
            try await executor.autocommit("placing \(placements.count) orders together") { database in
                try await PostgresOrderBatch.place(placements, kind: kind, on: database)
            }
        } alone: { index in
            let placement = placements[index]
            return try await executor.autocommit("placing order \(placement.order.id)") { database in
                try await PostgresOrderBatch.place([placement], kind: kind, on: database)[0].get()
            }
        }
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

    /// Takes each SKU's quantity from its product's stock in one statement, where enough is left;
    /// returns the SKUs that were short (the caller rolls back then).
    private static func takeStock(_ wanted: [(key: SKU, value: Int)], on database: any SQLDatabase) async throws -> Set<SKU> {
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
