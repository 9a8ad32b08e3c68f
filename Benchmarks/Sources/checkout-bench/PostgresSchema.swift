/// A PostgreSQL schema of the benchmark's own (the worker's `?schema=` option), made and dropped
/// with psql, so that its tables sit beside nobody else's.
struct PostgresSchema: Sendable {
    let name: String
    private let url: String
    private let psql: String

    static func create(_ name: String, in url: String, psql: String) async throws -> PostgresSchema {
        try await Subprocess.run(psql, [url, "-v", "ON_ERROR_STOP=1", "-q", "-c", "CREATE SCHEMA \(name)"])
        return PostgresSchema(name: name, url: url, psql: psql)
    }

    /// `CHECKOUT_DATABASE_URL` for a worker that works in this schema.
    var workerURL: String {
        url + (url.contains("?") ? "&" : "?") + "schema=\(name)"
    }

    /// The same schema for libpq's tools (pgbench, psql), through the connection's `search_path`.
    var libpqURL: String {
        url + (url.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(name)"
    }

    /// Gives the planner statistics of every table in the schema, as autovacuum does within its first
    /// minute. Until then a fresh table has none, and pgbench's one statement cost PostgreSQL about
    /// 2.4 times the CPU (BENCHMARKS.md), so the first rounds measured another ceiling than the later.
    func analyze() async throws {
        let tables = "SELECT tablename FROM pg_tables WHERE schemaname = '\(name)'"
        let statement = """
            DO $$ DECLARE t record; BEGIN
                FOR t IN \(tables) LOOP EXECUTE format('ANALYZE %I.%I', '\(name)', t.tablename); END LOOP;
            END $$
            """
        try await Subprocess.run(psql, [url, "-v", "ON_ERROR_STOP=1", "-q", "-c", statement])
    }

    func drop() async {
        do {
            try await Subprocess.run(psql, [url, "-v", "ON_ERROR_STOP=1", "-q", "-c", "DROP SCHEMA \(name) CASCADE"])
        } catch {
            log("could not drop schema \(name): \(error)")
        }
    }
}
