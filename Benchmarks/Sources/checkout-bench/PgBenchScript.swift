/// The worker's unit of work for each use case as one SQL statement, for pgbench: what PostgreSQL
/// sustains when a command costs it a single round trip. Same tables, catalog and rows as the
/// worker's store; only the path every benchmark command takes (accepted, in stock). Each statement
/// returns one row only if it did the whole unit, and `\gset` stops pgbench when it returns none, so a
/// rate never counts statements that did nothing.
///
/// Variables: `round` (`-D`), `seq` (`-D seq=0`, a counter of the client's own, since pgbench keeps a
/// client's variables from one transaction to the next) and pgbench's `client_id` make every command
/// id new. A cart is two of SKU `a` and one of SKU `b`, as ``Workload`` sends; `a` steps with `seq`
/// and is spread over the clients, so that concurrent commands touch other products, as the worker's
/// numbered commands do.
enum PgBenchScript {
    /// Sets `id`, `a` and `b` for the next command; ids are `pgbench-<id>`, carts `pgbench-cart-<id>`.
    static let prelude = #"""
        \set seq :seq + 1
        \set id \#(id(round: ":round", client: ":client_id", seq: ":seq"))
        \set a \#(firstSKU(client: ":client_id", seq: ":seq"))
        \set b \#(secondSKU(first: ":a"))
        """#

    /// Records the outcome (the cart as JSON), reads the two products and writes the cart; the outcome's
    /// key decides a race, as the worker's optimistic claim does.
    static let syncCart =
        prelude + "\n" + #"""
            WITH priced AS (
                SELECT products.sku, requested.quantity, products.unit_price
                FROM (VALUES ('\#(Workload.skuPrefix)' || :a::text, 2), ('\#(Workload.skuPrefix)' || :b::text, 1)) AS requested (sku, quantity)
                JOIN products ON products.sku = requested.sku AND products.active AND products.currency = 'EUR'
            ), cart AS (
                SELECT json_agg(json_build_object(
                           'sku', sku, 'quantity', quantity,
                           'unitPrice', json_build_object('minorUnits', unit_price, 'currency', 'EUR'),
                           'lineTotal', json_build_object('minorUnits', unit_price * quantity, 'currency', 'EUR')) ORDER BY sku) AS lines,
                       sum(unit_price * quantity) AS subtotal
                FROM priced
                HAVING count(*) = 2 AND EXISTS (SELECT 1 FROM products WHERE currency = 'EUR')
            ), outcome AS (
                INSERT INTO processed_commands (kind, command_id, outcome, recorded_at, digest)
                SELECT 'sync-cart', 'pgbench-' || :id::text,
                       json_build_object('synced', json_build_object(
                           'cart', json_build_object(
                               'id', 'pgbench-cart-' || :id::text, 'customerID', 'bench-customer', 'version', 1, 'currency', 'EUR',
                               'lines', lines, 'subtotal', json_build_object('minorUnits', subtotal, 'currency', 'EUR'),
                               'isCheckedOut', FALSE, 'syncedAt', extract(epoch FROM now())),
                           'adjustments', json_build_array()))::text,
                       extract(epoch FROM now()), 'pgbench-digest-' || :id::text
                FROM cart
                ON CONFLICT (kind, command_id) DO UPDATE SET outcome = excluded.outcome, recorded_at = excluded.recorded_at, lease_until = NULL
                WHERE processed_commands.outcome IS NULL
                RETURNING command_id
            )
            INSERT INTO carts (id, customer_id, version, currency, lines, checked_out, synced_at)
            SELECT 'pgbench-cart-' || :id::text, 'bench-customer', 1, 'EUR', cart.lines::text, FALSE, extract(epoch FROM now())
            FROM cart, outcome
            ON CONFLICT (id) DO NOTHING
            RETURNING 1 AS synced
            \gset
            """#

    /// Records the outcome (the order as JSON), checks the cart out at its version, takes stock of
    /// both lines, and writes the order and its lines. Each step runs only if the one before it
    /// succeeded, which also takes the worker's locks in the worker's order: outcome, cart, products
    /// (an `IN` list scans the key in order).
    static let placeOrder =
        prelude + "\n" + #"""
            WITH outcome AS (
                INSERT INTO processed_commands (kind, command_id, outcome, recorded_at, digest)
                VALUES ('place-order', 'pgbench-' || :id::text,
                        json_build_object('placed', json_build_object('order', json_build_object(
                            'id', 'pgbench-' || :id::text, 'cartID', 'pgbench-cart-' || :id::text, 'customerID', 'bench-customer',
                            'lines', json_build_array(
                                json_build_object('sku', '\#(Workload.skuPrefix)' || :a::text, 'quantity', 2,
                                                  'unitPrice', \#(Workload.unitPrice), 'lineTotal', \#(2 * Workload.unitPrice)),
                                json_build_object('sku', '\#(Workload.skuPrefix)' || :b::text, 'quantity', 1,
                                                  'unitPrice', \#(Workload.unitPrice), 'lineTotal', \#(Workload.unitPrice))),
                            'total', json_build_object('minorUnits', \#(Workload.cartTotal), 'currency', 'EUR'),
                            'payment', json_build_object('id', 'pay_pgbench_' || :id::text, 'amount', \#(Workload.cartTotal)),
                            'placedAt', extract(epoch FROM now()))))::text,
                        extract(epoch FROM now()), 'pgbench-digest-' || :id::text)
                ON CONFLICT (kind, command_id) DO UPDATE SET outcome = excluded.outcome, recorded_at = excluded.recorded_at, lease_until = NULL
                WHERE processed_commands.outcome IS NULL
                RETURNING command_id
            ), cart AS (
                UPDATE carts SET checked_out = TRUE
                WHERE id = 'pgbench-cart-' || :id::text AND version = 1 AND checked_out = FALSE AND EXISTS (SELECT 1 FROM outcome)
                RETURNING id, customer_id, currency
            ), taken AS (
                UPDATE products SET stock = stock - CASE sku WHEN '\#(Workload.skuPrefix)' || :a::text THEN 2 ELSE 1 END
                WHERE sku IN ('\#(Workload.skuPrefix)' || :a::text, '\#(Workload.skuPrefix)' || :b::text)
                  AND stock >= CASE sku WHEN '\#(Workload.skuPrefix)' || :a::text THEN 2 ELSE 1 END
                  AND EXISTS (SELECT 1 FROM cart)
                RETURNING sku, CASE sku WHEN '\#(Workload.skuPrefix)' || :a::text THEN 2 ELSE 1 END AS quantity, unit_price
            ), placed AS (
                INSERT INTO orders (id, cart_id, customer_id, currency, total, payment_id, payment_amount, placed_at)
                SELECT 'pgbench-' || :id::text, cart.id, cart.customer_id, cart.currency, totals.total, 'pay_pgbench_' || :id::text, totals.total,
                       extract(epoch FROM now())
                FROM cart, (SELECT sum(quantity * unit_price) AS total, count(*) AS lines FROM taken) AS totals
                WHERE totals.lines = 2
                RETURNING id
            ), lines AS (
                INSERT INTO order_lines (order_id, line_number, sku, quantity, unit_price, line_total)
                SELECT placed.id, row_number() OVER (ORDER BY taken.sku) - 1, taken.sku, taken.quantity, taken.unit_price, taken.quantity * taken.unit_price
                FROM placed, taken
                RETURNING 1
            )
            SELECT count(*) AS placed FROM lines HAVING count(*) = 2
            \gset
            """#

    /// The synced carts a PlaceOrder round orders, one per command it will send, with the lines the
    /// script takes stock of: as the benchmark syncs the worker's carts before its rounds, untimed.
    static func carts(round: Int, clients: Int, perClient: Int) -> String {
        func line(_ sku: String, quantity: Int) -> String {
            """
            json_build_object('sku', '\(Workload.skuPrefix)' || \(sku), 'quantity', \(quantity),
                              'unitPrice', json_build_object('minorUnits', \(Workload.unitPrice), 'currency', 'EUR'),
                              'lineTotal', json_build_object('minorUnits', \(quantity * Workload.unitPrice), 'currency', 'EUR'))
            """
        }
        return """
            INSERT INTO carts (id, customer_id, version, currency, lines, checked_out, synced_at)
            SELECT 'pgbench-cart-' || (\(id(round: "\(round)::bigint", client: "client", seq: "seq")))::text, 'bench-customer', 1, 'EUR',
                   json_build_array(\(line("a", quantity: 2)), \(line("(\(secondSKU(first: "a")))", quantity: 1)))::text,
                   FALSE, extract(epoch FROM now())
            FROM generate_series(0, \(clients - 1)) AS client, generate_series(1, \(perClient)) AS seq,
                 LATERAL (SELECT \(firstSKU(client: "client", seq: "seq")) AS a) AS first
            """
    }

    /// One expression for pgbench and SQL alike, so that the carts made for a round are the ones it orders.
    private static func id(round: String, client: String, seq: String) -> String {
        "\(round) * 1000000000 + \(client) * 10000000 + \(seq)"
    }

    private static func firstSKU(client: String, seq: String) -> String {
        "(\(seq) * 37 + \(client) * 101) % \(Workload.skuCount)"
    }

    private static func secondSKU(first: String) -> String {
        "(\(first) + \(Workload.skuCount / 2)) % \(Workload.skuCount)"
    }
}
