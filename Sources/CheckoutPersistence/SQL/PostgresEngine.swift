import Logging
import PostgresKit
import PostgresNIO
import SQLKit

/// PostgreSQL through `PostgresClient`'s pool; row locks and `WHERE` guards make concurrent writers safe
/// at the default isolation (read committed), so no transaction needs retrying for serialization.
struct PostgresEngine: SQLEngine {
    /// An arbitrary key every checkout-worker shares, so that one process at a time migrates.
    private static let migrationLockKey = 4_172_935_610

    private let client: PostgresClient
    private let runTask: Task<Void, Never>
    private let location: PostgresLocation
    private let logger: Logger

    /// Starts the client's pool of up to `poolSize` connections; ``close()`` stops it.
    static func start(_ location: PostgresLocation, poolSize: Int, logger: Logger) throws -> PostgresEngine {
        var configuration = PostgresClient.Configuration(
            host: location.host,
            port: location.port,
            username: location.username,
            password: location.password,
            database: location.database,
            tls: clientTLS(location.tls)
        )
        configuration.options.maximumConnections = max(1, poolSize)
        // Each connection going idle arms the pool's idle-timeout and keep-alive timers (Task.sleep); the next
        // lease cancels them, but a cancelled sleep stays in memory until its end (swiftlang/swift#60441): with
        // the defaults, 60 s and 30 s of them. Keep-alive (after 30 s idle) would never run on a connection
        // closed after 10 s idle.
        configuration.options.connectionIdleTimeout = .seconds(10)
        configuration.options.keepAliveBehavior = nil
        configuration.options.connectTimeout = .seconds(5)
        configuration.options.additionalStartupParameters = startupParameters(location)
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        return PostgresEngine(client: client, runTask: Task { await client.run() }, location: location, logger: logger)
    }

    /// A call whose connection was cut can wait forever in the pool; a command gives up after this.
    /// Long enough for any statement of the worker and a catalog import of tens of thousands of rows.
    /// Timed on the event loops the client's connections run on.
    var callDeadline: DatabaseDeadline? { DatabaseDeadline(limit: .seconds(10), timers: PostgresClient.defaultEventLoopGroup) }

    func read<Result: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result {
        try await withConnection(body)
    }

    func withConnection<Result: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result {
        try await client.withConnection { try await body($0.sql(logger: logger)) }
    }

    func transaction<Result: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> TransactionEnd<Result>) async throws -> Result {
        try await client.withConnection { try await $0.sql(logger: logger).inTransaction(beginning: "BEGIN", body) }
    }

    /// A transaction-scoped advisory lock: released at commit or rollback, also when the process dies.
    func lockForMigrations(_ database: any SQLDatabase) async throws {
        try await database.raw("SELECT pg_advisory_xact_lock(\(literal: Self.migrationLockKey))").run()
    }

    /// Opens a connection of its own: the pool would wait for the server up to its circuit breaker (a minute)
    /// before failing, too long for a readiness probe.
    func checkReachable() async throws {
        var configuration = PostgresConnection.Configuration(
            host: location.host,
            port: location.port,
            username: location.username,
            password: location.password,
            database: location.database,
            tls: try Self.connectionTLS(location.tls)
        )
        configuration.options.connectTimeout = .seconds(5)
        configuration.options.additionalStartupParameters = Self.startupParameters(location)
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
        do {
            try await connection.sql(logger: logger).raw("SELECT 1").run()
            try await connection.close()
        } catch {
            try? await connection.close()
            throw error
        }
    }

    func close() async {
        runTask.cancel()
        await runTask.value
    }

    private static func startupParameters(_ location: PostgresLocation) -> [(String, String)] {
        location.schema.map { [("search_path", $0)] } ?? []
    }

    private static func clientTLS(_ mode: PostgresLocation.TLSMode) -> PostgresClient.Configuration.TLS {
        switch mode {
        case .disable: .disable
        case .prefer: .prefer(.makeClientConfiguration())
        case .require: .require(.makeClientConfiguration())
        }
    }

    private static func connectionTLS(_ mode: PostgresLocation.TLSMode) throws -> PostgresConnection.Configuration.TLS {
        switch mode {
        case .disable: .disable
        case .prefer: .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
        case .require: .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        }
    }
}
