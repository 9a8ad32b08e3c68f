import SQLKit

extension SQLDatabase {
    /// The database server's clock in seconds since 1970, as an SQL expression: liveness is judged on
    /// one clock for every worker, whatever their own clocks say.
    var secondsSince1970: String {
        dialect.name == "postgresql" ? "extract(epoch from clock_timestamp())" : "((julianday('now') - 2440587.5) * 86400.0)"
    }
}
