/// Every migration, in the order they apply.
enum Migrations {
    static let all: [Migration] = [initialSchema, claimOwners]

    /// Dates are seconds since 1970 (`DOUBLE PRECISION`); amounts are minor units; a cart's lines and a
    /// command's outcome are the domain types' JSON.
    static let initialSchema = Migration(version: 1, name: "initial schema", statements: [
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
    static let claimOwners = Migration(version: 2, name: "claim digests and owners", statements: [
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
}
