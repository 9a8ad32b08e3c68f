/// Every migration, in the order they apply.
enum Migrations {
    static let all: [Migration] = [
        initialSchema, claimOwners, oneCallWrites, cartSKUs, oneIDSpace, claimsInOneCall, ordersTogether, plansKept,
        batchPlansKept, earlierChargesKept,
    ]

    /// Dates are seconds since 1970 (`DOUBLE PRECISION`); amounts are minor units; a cart's lines and a
    /// command's outcome are the domain types' JSON.
    static let initialSchema = Migration(
        version: 1, name: "initial schema",
        statements: [
            """
            CREATE TABLE products (
                sku TEXT PRIMARY KEY,
                name TEXT NOT NULL,
                unit_price BIGINT NOT NULL CHECK (unit_price >= 0),
                currency TEXT NOT NULL,
                stock BIGINT NOT NULL CHECK (stock >= 0),
                active BOOLEAN NOT NULL
            )
            """,
            "CREATE INDEX products_by_currency ON products (currency)",
            """
            CREATE TABLE carts (
                id TEXT PRIMARY KEY,
                customer_id TEXT NOT NULL,
                version BIGINT NOT NULL CHECK (version >= 1),
                currency TEXT NOT NULL,
                lines TEXT NOT NULL,
                checked_out BOOLEAN NOT NULL,
                synced_at DOUBLE PRECISION NOT NULL
            )
            """,
            """
            CREATE TABLE orders (
                id TEXT PRIMARY KEY,
                cart_id TEXT NOT NULL,
                customer_id TEXT NOT NULL,
                currency TEXT NOT NULL,
                total BIGINT NOT NULL,
                payment_id TEXT NOT NULL,
                payment_amount BIGINT NOT NULL,
                placed_at DOUBLE PRECISION NOT NULL
            )
            """,
            "CREATE INDEX orders_by_cart ON orders (cart_id)",
            """
            CREATE TABLE order_lines (
                order_id TEXT NOT NULL REFERENCES orders (id),
                line_number BIGINT NOT NULL,
                sku TEXT NOT NULL,
                quantity BIGINT NOT NULL CHECK (quantity > 0),
                unit_price BIGINT NOT NULL,
                line_total BIGINT NOT NULL,
                PRIMARY KEY (order_id, line_number)
            )
            """,
            """
            CREATE TABLE processed_commands (
                kind TEXT NOT NULL,
                command_id TEXT NOT NULL,
                lease_until DOUBLE PRECISION,
                outcome TEXT,
                recorded_at DOUBLE PRECISION,
                PRIMARY KEY (kind, command_id)
            )
            """,
        ])

    /// A claim knows its command, its worker and its charge: a digest of the command's body, so that a
    /// command re-using a handled id is told apart from the same command sent again (rows from before
    /// have none and match any command); the worker that took it, whose liveness decides when another
    /// may take it over; and the charge PlaceOrder asked for under it (``ChargeRecord``).
    static let claimOwners = Migration(
        version: 2, name: "claim digests and owners",
        statements: [
            "ALTER TABLE processed_commands ADD COLUMN digest TEXT",
            "ALTER TABLE processed_commands ADD COLUMN owner TEXT",
            "ALTER TABLE processed_commands ADD COLUMN charge TEXT",
            "CREATE TABLE worker_secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
            """
            CREATE TABLE workers (
                id TEXT PRIMARY KEY,
                alive_until DOUBLE PRECISION NOT NULL
            )
            """,
        ])

    /// The writes of SyncCart and PlaceOrder in one round trip each on PostgreSQL, with the same guards
    /// that `SQLSyncCartStore` and `SQLOrders` run statement by statement on SQLite; all or nothing,
    /// since a guard that fails raises, and the block's savepoint undoes the outcome written before it.
    ///
    /// `checkout_record_sync`: the outcome unless one is recorded, and with a synced cart the cart, if
    /// it is still at the version before. `checkout_place_order`: the outcome unless one is recorded,
    /// the cart checked out if still at its version, the stock of every SKU taken where enough is left
    /// (the short SKUs are answered), the order and its lines.
    static let oneCallWrites = Migration(
        version: 3, name: "one-call writes on PostgreSQL", statements: [],
        postgresStatements: [
            """
            CREATE FUNCTION checkout_record_sync(
                command_kind TEXT, command TEXT, outcome_json TEXT, body_digest TEXT, recorded DOUBLE PRECISION,
                cart TEXT, customer TEXT, cart_version BIGINT, cart_currency TEXT, cart_lines TEXT, cart_checked_out BOOLEAN, synced DOUBLE PRECISION
            ) RETURNS TABLE (result TEXT, current_version BIGINT, recorded_outcome TEXT, recorded_digest TEXT)
            LANGUAGE plpgsql AS $$
            BEGIN
                INSERT INTO processed_commands AS pc (kind, command_id, outcome, recorded_at, digest)
                VALUES (command_kind, command, outcome_json, recorded, body_digest)
                ON CONFLICT (kind, command_id) DO UPDATE SET outcome = excluded.outcome, recorded_at = excluded.recorded_at,
                    lease_until = NULL, digest = COALESCE(excluded.digest, pc.digest)
                WHERE pc.outcome IS NULL;
                IF NOT FOUND THEN
                    RETURN QUERY SELECT 'already-recorded'::TEXT, NULL::BIGINT, p.outcome, p.digest
                        FROM processed_commands p WHERE p.kind = command_kind AND p.command_id = command;
                    RETURN;
                END IF;
                IF cart IS NOT NULL THEN
                    IF cart_version = 1 THEN
                        INSERT INTO carts (id, customer_id, version, currency, lines, checked_out, synced_at)
                        VALUES (cart, customer, cart_version, cart_currency, cart_lines, cart_checked_out, synced)
                        ON CONFLICT (id) DO NOTHING;
                    ELSE
                        UPDATE carts SET customer_id = customer, version = cart_version, currency = cart_currency,
                            lines = cart_lines, checked_out = cart_checked_out, synced_at = synced
                        WHERE id = cart AND version = cart_version - 1 AND checked_out = FALSE;
                    END IF;
                    IF NOT FOUND THEN
                        RAISE EXCEPTION 'cart % was changed first', cart USING ERRCODE = 'CK001';
                    END IF;
                END IF;
                RETURN QUERY SELECT 'recorded'::TEXT, NULL::BIGINT, NULL::TEXT, NULL::TEXT;
            EXCEPTION WHEN SQLSTATE 'CK001' THEN
                RETURN QUERY SELECT 'version-conflict'::TEXT, COALESCE((SELECT c.version FROM carts c WHERE c.id = cart), 0), NULL::TEXT, NULL::TEXT;
            END
            $$
            """,
            """
            CREATE FUNCTION checkout_place_order(
                command_kind TEXT, command TEXT, outcome_json TEXT, recorded DOUBLE PRECISION,
                placed_order TEXT, cart TEXT, cart_version BIGINT, customer TEXT, order_currency TEXT, order_total BIGINT,
                payment TEXT, payment_amount BIGINT, placed DOUBLE PRECISION,
                stock_skus TEXT[], stock_quantities BIGINT[],
                line_skus TEXT[], line_quantities BIGINT[], line_unit_prices BIGINT[], line_totals BIGINT[]
            ) RETURNS TABLE (result TEXT, short_skus TEXT[], recorded_outcome TEXT)
            LANGUAGE plpgsql AS $$
            DECLARE
                taken TEXT[];
                short TEXT[];
            BEGIN
                INSERT INTO processed_commands AS pc (kind, command_id, outcome, recorded_at)
                VALUES (command_kind, command, outcome_json, recorded)
                ON CONFLICT (kind, command_id) DO UPDATE SET outcome = excluded.outcome, recorded_at = excluded.recorded_at, lease_until = NULL
                WHERE pc.outcome IS NULL;
                IF NOT FOUND THEN
                    RETURN QUERY SELECT 'already-recorded'::TEXT, NULL::TEXT[], p.outcome
                        FROM processed_commands p WHERE p.kind = command_kind AND p.command_id = command;
                    RETURN;
                END IF;
                UPDATE carts SET checked_out = TRUE WHERE id = cart AND version = cart_version AND checked_out = FALSE;
                IF NOT FOUND THEN
                    RAISE EXCEPTION 'cart % changed', cart USING ERRCODE = 'CK002';
                END IF;
                WITH taking AS (
                    UPDATE products SET stock = products.stock - wanted.quantity
                    FROM unnest(stock_skus, stock_quantities) AS wanted(sku, quantity)
                    WHERE products.sku = wanted.sku AND products.stock >= wanted.quantity
                    RETURNING products.sku
                )
                SELECT array_agg(taking.sku) INTO taken FROM taking;
                short := ARRAY(SELECT wanted FROM unnest(stock_skus) AS wanted WHERE wanted <> ALL(COALESCE(taken, '{}')));
                IF cardinality(short) > 0 THEN
                    RAISE EXCEPTION 'out of stock' USING ERRCODE = 'CK003';
                END IF;
                INSERT INTO orders (id, cart_id, customer_id, currency, total, payment_id, payment_amount, placed_at)
                VALUES (placed_order, cart, customer, order_currency, order_total, payment, payment_amount, placed)
                ON CONFLICT (id) DO NOTHING;
                IF NOT FOUND THEN
                    RAISE EXCEPTION 'order % exists', placed_order USING ERRCODE = 'CK004';
                END IF;
                INSERT INTO order_lines (order_id, line_number, sku, quantity, unit_price, line_total)
                SELECT placed_order, line.number - 1, line.sku, line.quantity, line.unit_price, line.total
                FROM unnest(line_skus, line_quantities, line_unit_prices, line_totals) WITH ORDINALITY
                    AS line(sku, quantity, unit_price, total, number);
                RETURN QUERY SELECT 'placed'::TEXT, NULL::TEXT[], NULL::TEXT;
            EXCEPTION
                WHEN SQLSTATE 'CK002' THEN RETURN QUERY SELECT 'cart-changed'::TEXT, NULL::TEXT[], NULL::TEXT;
                WHEN SQLSTATE 'CK003' THEN RETURN QUERY SELECT 'out-of-stock'::TEXT, short, NULL::TEXT;
                WHEN SQLSTATE 'CK004' THEN RETURN QUERY SELECT 'duplicate-order'::TEXT, NULL::TEXT[], NULL::TEXT;
            END
            $$
            """,
        ])

    /// `carts.skus`: the SKUs of a cart's lines, separated by spaces (an identifier has none), so that
    /// on PostgreSQL PlaceOrder's claim reads the cart's products by key in the same statement, without
    /// parsing the lines' JSON. A cart written before this migration, or by a worker of the version
    /// before during a rolling upgrade, has none, and its products are read apart. SQLite's claim reads
    /// the products of the cart's lines on its writer, and leaves the column empty.
    ///
    /// `checkout_record_sync` gains the column as its last argument; the function without it stays,
    /// for the workers of the version before.
    static let cartSKUs = Migration(
        version: 4, name: "cart SKUs",
        statements: ["ALTER TABLE carts ADD COLUMN skus TEXT"],
        postgresStatements: [
            """
            CREATE FUNCTION checkout_record_sync(
                command_kind TEXT, command TEXT, outcome_json TEXT, body_digest TEXT, recorded DOUBLE PRECISION,
                cart TEXT, customer TEXT, cart_version BIGINT, cart_currency TEXT, cart_lines TEXT, cart_checked_out BOOLEAN, synced DOUBLE PRECISION,
                cart_skus TEXT
            ) RETURNS TABLE (result TEXT, current_version BIGINT, recorded_outcome TEXT, recorded_digest TEXT)
            LANGUAGE plpgsql AS $$
            BEGIN
                INSERT INTO processed_commands AS pc (kind, command_id, outcome, recorded_at, digest)
                VALUES (command_kind, command, outcome_json, recorded, body_digest)
                ON CONFLICT (kind, command_id) DO UPDATE SET outcome = excluded.outcome, recorded_at = excluded.recorded_at,
                    lease_until = NULL, digest = COALESCE(excluded.digest, pc.digest)
                WHERE pc.outcome IS NULL;
                IF NOT FOUND THEN
                    RETURN QUERY SELECT 'already-recorded'::TEXT, NULL::BIGINT, p.outcome, p.digest
                        FROM processed_commands p WHERE p.kind = command_kind AND p.command_id = command;
                    RETURN;
                END IF;
                IF cart IS NOT NULL THEN
                    IF cart_version = 1 THEN
                        INSERT INTO carts (id, customer_id, version, currency, lines, checked_out, synced_at, skus)
                        VALUES (cart, customer, cart_version, cart_currency, cart_lines, cart_checked_out, synced, cart_skus)
                        ON CONFLICT (id) DO NOTHING;
                    ELSE
                        UPDATE carts SET customer_id = customer, version = cart_version, currency = cart_currency,
                            lines = cart_lines, checked_out = cart_checked_out, synced_at = synced, skus = cart_skus
                        WHERE id = cart AND version = cart_version - 1 AND checked_out = FALSE;
                    END IF;
                    IF NOT FOUND THEN
                        RAISE EXCEPTION 'cart % was changed first', cart USING ERRCODE = 'CK001';
                    END IF;
                END IF;
                RETURN QUERY SELECT 'recorded'::TEXT, NULL::BIGINT, NULL::TEXT, NULL::TEXT;
            EXCEPTION WHEN SQLSTATE 'CK001' THEN
                RETURN QUERY SELECT 'version-conflict'::TEXT, COALESCE((SELECT c.version FROM carts c WHERE c.id = cart), 0), NULL::TEXT, NULL::TEXT;
            END
            $$
            """
        ])

    /// A command id belongs to one command whatever its type, as CONTRACT.md's `message_id` is: the
    /// unique index ``SQLCommandLog/idIndex`` refuses a second kind's row under an id, and the store
    /// answers that command as a duplicate. The key `(kind, command_id)` stays, for the statements that
    /// name it (also those of workers of the version before, during a rolling upgrade).
    ///
    /// Ids a sync and an order already share keep the order's, whichever came first: its row holds the
    /// charge a refund is made from. The sync's row is renamed to
    /// `<id> (sync-cart)`, which no command id can be (it has a space), so a sync sent again under
    /// that id is answered `duplicate-message-id`. On PostgreSQL the table is locked against writes
    /// first, so that no worker of the version before adds a shared id between the renaming and the
    /// index; the lock holds them back for as long as the index takes to build.
    static let oneIDSpace = Migration(
        version: 5, name: "one command id space",
        postgresLocks: ["LOCK TABLE processed_commands IN SHARE ROW EXCLUSIVE MODE"],
        statements: [
            """
            UPDATE processed_commands SET command_id = command_id || ' (' || kind || ')'
            WHERE kind = 'sync-cart' AND command_id IN (SELECT command_id FROM processed_commands WHERE kind = 'place-order')
            """,
            "CREATE UNIQUE INDEX \(SQLCommandLog.idIndex) ON processed_commands (command_id)",
        ])

    /// `checkout_claim`: ``SQLCommandLog``'s claim of a command, the statement it runs on SQLite, as a
    /// function, so that on PostgreSQL one statement claims every command of a batch in turn
    /// (``PostgresClaimBatch``). Answers TRUE when the claim is taken, NULL when not. The worker's
    /// liveness is judged on the database's clock, as in the statement.
    static let claimsInOneCall = Migration(
        version: 6, name: "claims in one call on PostgreSQL", statements: [],
        postgresStatements: [
            """
            CREATE FUNCTION checkout_claim(
                claim_kind TEXT, claim_command TEXT, claim_lease_until DOUBLE PRECISION, claim_digest TEXT, claim_owner TEXT,
                claim_charge TEXT, claim_is_only_attempt BOOLEAN, claim_now DOUBLE PRECISION
            ) RETURNS BOOLEAN
            LANGUAGE sql AS $$
                INSERT INTO processed_commands AS pc (kind, command_id, lease_until, digest, owner, charge)
                SELECT claim_kind, claim_command, claim_lease_until, claim_digest, claim_owner, claim_charge
                WHERE claim_is_only_attempt OR EXISTS (
                    SELECT 1 FROM processed_commands p WHERE p.kind = claim_kind AND p.command_id = claim_command)
                ON CONFLICT (kind, command_id) DO UPDATE SET lease_until = excluded.lease_until, digest = excluded.digest,
                    owner = excluded.owner, charge = COALESCE(excluded.charge, pc.charge)
                WHERE pc.outcome IS NULL
                  AND (pc.digest IS NULL OR excluded.digest IS NULL OR pc.digest = excluded.digest)
                  AND (pc.lease_until <= claim_now
                       OR (pc.owner = claim_owner AND claim_is_only_attempt)
                       OR (pc.owner IS NOT NULL AND pc.owner <> claim_owner AND NOT EXISTS (
                           SELECT 1 FROM workers
                           WHERE workers.id = pc.owner AND workers.alive_until > extract(epoch from clock_timestamp()))))
                RETURNING TRUE
            $$
            """
        ])

    /// `checkout_lock_for_orders`: locks every cart of a batch of orders, then every product, each in
    /// key order, so that on PostgreSQL one statement can place several orders in turn
    /// (``PostgresOrderBatch``) without deadlocking against another worker's batch, whose orders hold
    /// other carts and products in another order. Answers TRUE.
    static let ordersTogether = Migration(
        version: 7, name: "orders placed together on PostgreSQL", statements: [],
        postgresStatements: [
            """
            CREATE FUNCTION checkout_lock_for_orders(order_carts TEXT[], order_skus TEXT[]) RETURNS BOOLEAN
            LANGUAGE plpgsql AS $$
            BEGIN
                PERFORM 1 FROM carts WHERE id = ANY (order_carts) ORDER BY id FOR UPDATE;
                PERFORM 1 FROM products WHERE sku = ANY (order_skus) ORDER BY sku FOR UPDATE;
                RETURN TRUE;
            END
            $$
            """
        ])

    /// `checkout_place_order` and `checkout_claim` again, doing the same in statements that PostgreSQL
    /// plans once per connection instead of once per call. The order took its stock in one
    /// `UPDATE … FROM unnest(…)`, a statement over an array, which PostgreSQL planned again for every
    /// order: a plan for any number of SKUs looked costlier than one for the order's own. It now takes
    /// each SKU's stock by key. `checkout_claim` was an SQL function, which PostgreSQL up to 17 parses
    /// and plans again in every statement that calls it; in PL/pgSQL its plan is kept. Same arguments,
    /// same answers: the workers of the version before, during a rolling upgrade, call them unchanged.
    static let plansKept = Migration(
        version: 8, name: "plans kept across calls on PostgreSQL", statements: [],
        postgresStatements: [
            """
            CREATE OR REPLACE FUNCTION checkout_place_order(
                command_kind TEXT, command TEXT, outcome_json TEXT, recorded DOUBLE PRECISION,
                placed_order TEXT, cart TEXT, cart_version BIGINT, customer TEXT, order_currency TEXT, order_total BIGINT,
                payment TEXT, payment_amount BIGINT, placed DOUBLE PRECISION,
                stock_skus TEXT[], stock_quantities BIGINT[],
                line_skus TEXT[], line_quantities BIGINT[], line_unit_prices BIGINT[], line_totals BIGINT[]
            ) RETURNS TABLE (result TEXT, short_skus TEXT[], recorded_outcome TEXT)
            LANGUAGE plpgsql AS $$
            DECLARE
                short TEXT[] := '{}';
            BEGIN
                INSERT INTO processed_commands AS pc (kind, command_id, outcome, recorded_at)
                VALUES (command_kind, command, outcome_json, recorded)
                ON CONFLICT (kind, command_id) DO UPDATE SET outcome = excluded.outcome, recorded_at = excluded.recorded_at, lease_until = NULL
                WHERE pc.outcome IS NULL;
                IF NOT FOUND THEN
                    RETURN QUERY SELECT 'already-recorded'::TEXT, NULL::TEXT[], p.outcome
                        FROM processed_commands p WHERE p.kind = command_kind AND p.command_id = command;
                    RETURN;
                END IF;
                UPDATE carts SET checked_out = TRUE WHERE id = cart AND version = cart_version AND checked_out = FALSE;
                IF NOT FOUND THEN
                    RAISE EXCEPTION 'cart % changed', cart USING ERRCODE = 'CK002';
                END IF;
                FOR i IN 1 .. coalesce(cardinality(stock_skus), 0) LOOP
                    UPDATE products SET stock = stock - stock_quantities[i] WHERE sku = stock_skus[i] AND stock >= stock_quantities[i];
                    IF NOT FOUND THEN
                        short := short || stock_skus[i];
                    END IF;
                END LOOP;
                IF cardinality(short) > 0 THEN
                    RAISE EXCEPTION 'out of stock' USING ERRCODE = 'CK003';
                END IF;
                INSERT INTO orders (id, cart_id, customer_id, currency, total, payment_id, payment_amount, placed_at)
                VALUES (placed_order, cart, customer, order_currency, order_total, payment, payment_amount, placed)
                ON CONFLICT (id) DO NOTHING;
                IF NOT FOUND THEN
                    RAISE EXCEPTION 'order % exists', placed_order USING ERRCODE = 'CK004';
                END IF;
                INSERT INTO order_lines (order_id, line_number, sku, quantity, unit_price, line_total)
                SELECT placed_order, line.number - 1, line.sku, line.quantity, line.unit_price, line.total
                FROM unnest(line_skus, line_quantities, line_unit_prices, line_totals) WITH ORDINALITY
                    AS line(sku, quantity, unit_price, total, number);
                RETURN QUERY SELECT 'placed'::TEXT, NULL::TEXT[], NULL::TEXT;
            EXCEPTION
                WHEN SQLSTATE 'CK002' THEN RETURN QUERY SELECT 'cart-changed'::TEXT, NULL::TEXT[], NULL::TEXT;
                WHEN SQLSTATE 'CK003' THEN RETURN QUERY SELECT 'out-of-stock'::TEXT, short, NULL::TEXT;
                WHEN SQLSTATE 'CK004' THEN RETURN QUERY SELECT 'duplicate-order'::TEXT, NULL::TEXT[], NULL::TEXT;
            END
            $$
            """,
            """
            CREATE OR REPLACE FUNCTION checkout_claim(
                claim_kind TEXT, claim_command TEXT, claim_lease_until DOUBLE PRECISION, claim_digest TEXT, claim_owner TEXT,
                claim_charge TEXT, claim_is_only_attempt BOOLEAN, claim_now DOUBLE PRECISION
            ) RETURNS BOOLEAN
            LANGUAGE plpgsql AS $$
            DECLARE
                taken BOOLEAN;
            BEGIN
                INSERT INTO processed_commands AS pc (kind, command_id, lease_until, digest, owner, charge)
                SELECT claim_kind, claim_command, claim_lease_until, claim_digest, claim_owner, claim_charge
                WHERE claim_is_only_attempt OR EXISTS (
                    SELECT 1 FROM processed_commands p WHERE p.kind = claim_kind AND p.command_id = claim_command)
                ON CONFLICT (kind, command_id) DO UPDATE SET lease_until = excluded.lease_until, digest = excluded.digest,
                    owner = excluded.owner, charge = COALESCE(excluded.charge, pc.charge)
                WHERE pc.outcome IS NULL
                  AND (pc.digest IS NULL OR excluded.digest IS NULL OR pc.digest = excluded.digest)
                  AND (pc.lease_until <= claim_now
                       OR (pc.owner = claim_owner AND claim_is_only_attempt)
                       OR (pc.owner IS NOT NULL AND pc.owner <> claim_owner AND NOT EXISTS (
                           SELECT 1 FROM workers
                           WHERE workers.id = pc.owner AND workers.alive_until > extract(epoch from clock_timestamp()))))
                RETURNING TRUE INTO taken;
                RETURN taken;
            END
            $$
            """,
        ])

    /// `checkout_batch`: its argument, as a value PostgreSQL's planner does not look into. A batch's
    /// statement (``PostgresClaimBatch``, ``PostgresOrderBatch``, ``PostgresSyncBatch``) selects from
    /// `unnest` of its arrays, and PostgreSQL planned it again for every batch: a plan for the
    /// batch's own number of elements looked cheaper than one for any number. Over
    /// `unnest(checkout_batch(…))` both plans count the same rows, so PostgreSQL keeps the generic one
    /// after its first five runs on a connection. The workers of the version before do not call it.
    static let batchPlansKept = Migration(
        version: 9, name: "batch plans kept on PostgreSQL", statements: [],
        postgresStatements: [
            """
            CREATE FUNCTION checkout_batch(items ANYARRAY) RETURNS ANYARRAY
            LANGUAGE plpgsql VOLATILE AS $$
            BEGIN
                RETURN items;
            END
            $$
            """
        ])

    /// `checkout_take_claim`: `checkout_claim`, except that it keeps the charge an earlier attempt of
    /// the command recorded, an approval above all, instead of writing the claim's own, and answers
    /// the command's charge after the claim: `''` for none, NULL when the claim is not taken. A new
    /// name: the workers of the version before, during a rolling upgrade, call `checkout_claim` unchanged.
    static let earlierChargesKept = Migration(
        version: 10, name: "claims keep an earlier attempt's charge on PostgreSQL", statements: [],
        postgresStatements: [
            """
            CREATE FUNCTION checkout_take_claim(
                claim_kind TEXT, claim_command TEXT, claim_lease_until DOUBLE PRECISION, claim_digest TEXT, claim_owner TEXT,
                claim_charge TEXT, claim_is_only_attempt BOOLEAN, claim_now DOUBLE PRECISION
            ) RETURNS TEXT
            LANGUAGE plpgsql AS $$
            DECLARE
                charge_after TEXT;
            BEGIN
                INSERT INTO processed_commands AS pc (kind, command_id, lease_until, digest, owner, charge)
                SELECT claim_kind, claim_command, claim_lease_until, claim_digest, claim_owner, claim_charge
                WHERE claim_is_only_attempt OR EXISTS (
                    SELECT 1 FROM processed_commands p WHERE p.kind = claim_kind AND p.command_id = claim_command)
                ON CONFLICT (kind, command_id) DO UPDATE SET lease_until = excluded.lease_until, digest = excluded.digest,
                    owner = excluded.owner, charge = COALESCE(pc.charge, excluded.charge)
                WHERE pc.outcome IS NULL
                  AND (pc.digest IS NULL OR excluded.digest IS NULL OR pc.digest = excluded.digest)
                  AND (pc.lease_until <= claim_now
                       OR (pc.owner = claim_owner AND claim_is_only_attempt)
                       OR (pc.owner IS NOT NULL AND pc.owner <> claim_owner AND NOT EXISTS (
                           SELECT 1 FROM workers
                           WHERE workers.id = pc.owner AND workers.alive_until > extract(epoch from clock_timestamp()))))
                RETURNING COALESCE(pc.charge, '') INTO charge_after;
                RETURN charge_after;
            END
            $$
            """
        ])
}
