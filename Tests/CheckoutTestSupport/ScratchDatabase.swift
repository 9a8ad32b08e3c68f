public import Foundation
import Logging
public import PostgresNIO

/// An empty database of one test's own, for the engines that outlive a process: a SQLite file in a
/// scratch directory, or a schema of its own on the test PostgreSQL that `scripts/test.sh` starts
/// (`POSTGRES_URL`), so that suites can run in parallel. ``drop()`` removes it.
public struct ScratchDatabase: Sendable {
    public enum Engine: String, Sendable, CaseIterable {
        case sqlite
        case postgres
    }

    public let engine: Engine
    /// What `CHECKOUT_DATABASE_URL` or `CheckoutStore.open` takes.
    public let url: String
    /// The schema, on PostgreSQL.
    public let schema: String?
    private let directory: URL?

    public static func make(_ engine: Engine) async throws -> ScratchDatabase {
        switch engine {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("checkout-test-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let url = "sqlite://\(directory.appendingPathComponent("checkout.sqlite").path)"
            return ScratchDatabase(engine: engine, url: url, schema: nil, directory: directory)
        case .postgres:
            let schema = "test_\(UUID().uuidString.prefix(12).lowercased().replacingOccurrences(of: "-", with: ""))"
            try await executeOnPostgres("CREATE SCHEMA \(schema)")
            let url = "\(postgresURL)\(postgresURL.contains("?") ? "&" : "?")schema=\(schema)"
            return ScratchDatabase(engine: engine, url: url, schema: schema, directory: nil)
        }
    }

    /// Runs `body` with a new database of `engine`, and removes it afterwards.
    public static func with<Result>(_ engine: Engine, _ body: (ScratchDatabase) async throws -> Result) async throws -> Result {
        let database = try await make(engine)
        do {
            let result = try await body(database)
            await database.drop()
            return result
        } catch {
            await database.drop()
            throw error
        }
    }

    /// Removes the file or drops the schema.
    public func drop() async {
        if let directory { try? FileManager.default.removeItem(at: directory) }
        if let schema { try? await Self.executeOnPostgres("DROP SCHEMA \(schema) CASCADE") }
    }

    /// The test PostgreSQL's URL.
    public static var postgresURL: String {
        ProcessInfo.processInfo.environment["POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
            ?? "postgres://checkout:checkout@127.0.0.1:21432/checkout_test"
    }

    /// Runs one statement on a connection of its own to the test PostgreSQL; fails loudly if the server
    /// cannot be reached.
    public static func executeOnPostgres(_ sql: String, schema: String? = nil) async throws {
        let connection = try await connectToPostgres(schema: schema)
        do {
            try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
            try await connection.close()
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// A connection of its own to the test PostgreSQL, working in `schema` when one is given.
    public static func connectToPostgres(schema: String? = nil) async throws -> PostgresConnection {
        guard let components = URLComponents(string: postgresURL), let host = components.host, let user = components.user else {
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
        return try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
    }

    private static let logger: Logger = {
        var logger = Logger(label: "scratch-database")
        logger.logLevel = .critical
        return logger
    }()
}
