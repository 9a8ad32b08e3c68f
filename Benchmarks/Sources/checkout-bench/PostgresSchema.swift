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

    func drop() async {
        do {
            try await Subprocess.run(psql, [url, "-v", "ON_ERROR_STOP=1", "-q", "-c", "DROP SCHEMA \(name) CASCADE"])
        } catch {
            log("could not drop schema \(name): \(error)")
        }
    }
}
