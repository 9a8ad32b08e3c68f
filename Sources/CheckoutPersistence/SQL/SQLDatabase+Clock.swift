import SQLKit

extension SQLDatabase {
    /// The database server's clock in seconds since 1970, as an SQL expression: liveness is judged on
    /// one clock for every worker, whatever their own clocks say.
    var secondsSince1970: String {
        isPostgreSQL ? "extract(epoch from clock_timestamp())" : "((julianday('now') - 2440587.5) * 86400.0)"
    }

    /// Whether this is PostgreSQL, whose stored functions write in one round trip (``Migration/postgresStatements``).
    var isPostgreSQL: Bool {
        dialect.name == "postgresql"
    }
}
