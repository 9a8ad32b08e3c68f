import Foundation
import PostgresNIO

/// The private PostgreSQL that `scripts/test.sh` starts, found through `POSTGRES_URL`.
///
/// Each suite works in a schema of its own, made here and dropped afterwards, so suites can run in parallel.
enum TestPostgres {
    static var baseURL: String {
        ProcessInfo.processInfo.environment["POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
            ?? "postgres://checkout:checkout@127.0.0.1:21432/checkout_test"
    }

    static func url(schema: String) -> String {
        "\(baseURL)\(baseURL.contains("?") ? "&" : "?")schema=\(schema)"
    }

    static func withSchema<Result>(_ body: (String) async throws -> Result) async throws -> Result {
        let schema = "test_\(UUID().uuidString.prefix(12).lowercased().replacingOccurrences(of: "-", with: ""))"
        try await execute("CREATE SCHEMA \(schema)")
        do {
            let result = try await body(schema)
            try await execute("DROP SCHEMA \(schema) CASCADE")
            return result
        } catch {
            try? await execute("DROP SCHEMA \(schema) CASCADE")
            throw error
        }
    }

    /// Runs one statement on a connection of its own; fails loudly if the server cannot be reached.
    static func execute(_ sql: String, schema: String? = nil) async throws {
        let connection = try await connect(schema: schema)
        do {
            try await connection.query(PostgresQuery(unsafeSQL: sql), logger: TestLogger.logger)
            try await connection.close()
        } catch {
            try? await connection.close()
            throw error
        }
    }

    static func connect(schema: String? = nil) async throws -> PostgresConnection {
        guard let components = URLComponents(string: baseURL), let host = components.host, let user = components.user else {
            throw URLError(.badURL)
        }
        var configuration = PostgresConnection.Configuration(
            host: host,
            port: components.port ?? 5432,
            username: user,
            password: components.password,
            database: String(components.path.dropFirst()),
            tls: .disable
        )
        if let schema {
            configuration.options.additionalStartupParameters = [("search_path", schema)]
        }
        return try await PostgresConnection.connect(configuration: configuration, id: 1, logger: TestLogger.logger)
    }
}
