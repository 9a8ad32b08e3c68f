import CheckoutDomain
import SQLKit

/// The store's own operations over SQL: catalog import, order lookup, liveness, reachability.
struct SQLStoreBackend: StoreBackend {
    let executor: SQLExecutor
    let liveness: SQLWorkerLiveness
    let migrator: Migrator
    /// SQLite: one worker process per file, so another worker in `workers` is one that died.
    let isSingleProcess: Bool

    /// Finds which SKUs exist first, so the report can tell inserts from updates on both engines; then
    /// upserts many rows per statement, so that a catalog of thousands is a few round trips.
    ///
    /// One transaction, which may outlast the call limit by 1 ms a product (a product took about 40 µs
    /// with a release build here, 100 with a debug one): a million take most of a minute, and one
    /// abandoned half way imports nothing, while a database that stops answering is still given up on.
    /// Each statement stays under the server's own bound of the call limit.
    func importCatalog(_ products: [Product]) async throws -> CatalogImportReport {
        let limit = executor.engine.callDeadline.map { $0.limit + .milliseconds(1) * products.count }
        return try await executor.write("importing \(products.count) products", limit: limit) { database in
            var known: Set<String> = []
            for chunk in products.map(\.sku.rawValue).chunked(into: SQLLimits.bindsPerStatement) {
                let rows = try await database.raw("SELECT sku FROM products WHERE sku IN (\(binds: Array(chunk)))").all()
                for row in rows {
                    known.insert(try StoredRow(row, of: "products").value("sku"))
                }
            }
            var inserted = 0
            for product in products where known.insert(product.sku.rawValue).inserted {
                inserted += 1
            }
            // The last row of a SKU wins, as if the rows were written one by one; one statement cannot
            // upsert the same row twice.
            let lastIndexOfEachSKU = Dictionary(products.enumerated().map { ($1.sku, $0) }) { _, last in last }
            let rows = products.enumerated().filter { lastIndexOfEachSKU[$1.sku] == $0 }.map(\.element)
            for chunk in rows.chunked(into: SQLLimits.bindsPerStatement / 6) {
                var upsert: SQLQueryString = "INSERT INTO products (sku, name, unit_price, currency, stock, active) VALUES "
                for (index, product) in chunk.enumerated() {
                    upsert.appendLiteral(index == 0 ? "" : ", ")
                    upsert.appendInterpolation(
                        """
                        (\(bind: product.sku.rawValue), \(bind: product.name), \(bind: product.price.minorUnits), \
                        \(bind: product.price.currency.rawValue), \(bind: product.stock), \(bind: product.isActive))
                        """ as SQLQueryString)
                }
                upsert.appendLiteral(
                    """
                     ON CONFLICT (sku) DO UPDATE SET name = excluded.name, unit_price = excluded.unit_price,
                        currency = excluded.currency, stock = excluded.stock, active = excluded.active
                    """)
                try await database.raw(upsert).run()
            }
            return .commit(CatalogImportReport(inserted: inserted, updated: products.count - inserted))
        }
    }

    func orders(forCart cartID: CartID) async throws -> [Order] {
        try await executor.read("loading the orders of cart \(cartID)") { database in
            let rows = try await database.raw(
                """
                SELECT id, cart_id, customer_id, currency, total, payment_id, payment_amount, placed_at
                FROM orders WHERE cart_id = \(bind: cartID.rawValue) ORDER BY placed_at, id
                """
            ).all()
            var orders: [Order] = []
            for row in rows {
                orders.append(try await Self.order(from: StoredRow(row, of: "orders"), on: database))
            }
            return orders
        }
    }

    func renewLiveness(window: Double, first: Bool) async throws {
        try await executor.autocommit("renewing the liveness of worker \(liveness.worker)") { [liveness, isSingleProcess] database in
            if first && isSingleProcess { try await liveness.forgetOthers(on: database) }
            try await liveness.beat(window: window, on: database)
        }
    }

    func retire() async throws {
        try await executor.autocommit("retiring worker \(liveness.worker)") { [liveness] database in
            try await liveness.retire(on: database)
        }
    }

    func secret(_ name: String, candidate: String) async throws -> String {
        try await executor.autocommit("reading the secret \(name)") { database in
            try await database.raw(
                """
                INSERT INTO worker_secrets (name, value) VALUES (\(bind: name), \(bind: candidate)) ON CONFLICT (name) DO NOTHING
                """
            ).run()
            guard let row = try await database.raw("SELECT value FROM worker_secrets WHERE name = \(bind: name)").first() else {
                throw PersistenceError(code: .unreadableRow, context: "the secret \(name) is missing after it was stored")
            }
            return try StoredRow(row, of: "worker_secrets").value("value")
        }
    }

    func checkReachable() async throws {
        do {
            try await executor.engine.checkReachable()
        } catch {
            throw DatabaseFault.classify(error, context: "checking that the database is reachable")
        }
    }

    /// Waits for the database's first answer as long as any call (``SQLEngine/callDeadline``), not the
    /// few seconds the readiness probe's ``checkReachable()`` allows PostgreSQL: workers starting
    /// together on a busy server are answered late, and a worker that gives up at start-up does not start.
    func prepare(livenessWindow: Double) async throws {
        do {
            try await executor.engine.checkLogin()
        } catch let error as PersistenceError {
            throw error
        } catch {
            // What may pass (no answer yet, too many connections) the pool's first call waits out, as any call.
        }
        try await executor.read("checking that the database is reachable") { try await $0.raw("SELECT 1").run() }
        try await migrator.migrate()
        try await renewLiveness(window: livenessWindow, first: false)
    }

    func run() async {
        await executor.engine.run()
    }

    private static func order(from row: StoredRow, on database: any SQLDatabase) async throws -> Order {
        let id: OrderID = try row.identifier("id")
        let currency = try row.currency("currency")
        let lineRows = try await database.raw(
            """
            SELECT sku, quantity, unit_price FROM order_lines WHERE order_id = \(bind: id.rawValue) ORDER BY line_number
            """
        ).all()
        do {
            let lines = try lineRows.map { lineRow in
                let line = StoredRow(lineRow, of: "order_lines")
                return try CartLine(
                    sku: line.identifier("sku"),
                    quantity: line.value("quantity"),
                    unitPrice: Money(minorUnits: line.value("unit_price"), currency: currency)
                )
            }
            return Order(
                id: id,
                cartID: try row.identifier("cart_id"),
                customerID: try row.identifier("customer_id"),
                lines: lines,
                total: Money(minorUnits: try row.value("total"), currency: currency),
                payment: Payment(
                    id: PaymentID(try row.value("payment_id")),
                    amount: Money(minorUnits: try row.value("payment_amount"), currency: currency)
                ),
                placedAt: try row.date("placed_at")
            )
        } catch let error as MoneyError {
            throw PersistenceError(code: .unreadableRow, context: "reading order_lines of order \(id)", underlying: error)
        }
    }
}
