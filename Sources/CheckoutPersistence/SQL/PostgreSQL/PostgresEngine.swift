import Logging
import PostgresKit
import PostgresNIO
import SQLKit

/// PostgreSQL through `PostgresClient`'s pool; row locks and `WHERE` guards make concurrent writers safe
/// at the default isolation (read committed), so no transaction needs retrying for serialization.
/// Statements with parameters run by name, prepared once per connection (``PostgresPreparingDatabase``),
/// whose plans each connection renews as it ages (``PostgresPlanRenewal``).
struct PostgresEngine: SQLEngine {

    private let client: PostgresClient
    /// The one event loop of the client's connections, where calls run (``callDeadline``).
    private let executor: EventLoopTaskExecutor
    private let statements: PostgresStatementCaches
    private let started = PostgresStartGate()
    private let location: PostgresLocation
    private let logger: Logger
    private let statistics: DatabaseStatistics
    private let callLimit: Duration

    /// A pool of up to `poolSize` connections, which connects once ``run()`` runs it.
    ///
    /// - Parameters:
    ///   - callLimit: How long a call may go unanswered; see ``callDeadline``.
    ///   - firstPlanRenewal: How long after its first lease a connection first renews its plans.
    init(
        _ location: PostgresLocation,
        poolSize: Int,
        logger: Logger,
        statistics: DatabaseStatistics,
        callLimit: Duration = .seconds(10),
        firstPlanRenewal: Duration = .seconds(1)
    ) {
        var configuration = PostgresClient.Configuration(
            host: location.host,
            port: location.port,
            username: location.username,
            password: location.password,
            database: location.database,
            tls: Self.clientTLS(location.tls)
        )
        configuration.options.maximumConnections = max(1, poolSize)
        // Each connection going idle, at every release, arms the pool's idle-timeout and keep-alive timers
        // (Task.sleep); the next lease cancels them, but a cancelled sleep stays in memory until its end
        // (swiftlang/swift#60441): with the defaults, 60 s and 30 s of them. Keep-alive (after 30 s idle) would
        // never run on a connection closed after 10 s idle. The pool's minimum connections arm no idle timer and
        // take every lease they can, lowest first: as many as one kind of batch keeps busy (``SQLBatcher``).
        configuration.options.minimumConnections = min(max(1, poolSize), SQLExecutor.concurrentBatches)
        configuration.options.connectionIdleTimeout = .seconds(10)
        configuration.options.keepAliveBehavior = nil
        configuration.options.connectTimeout = .seconds(5)
        configuration.options.additionalStartupParameters = Self.startupParameters(location, callLimit: callLimit)
        // One loop is plenty for one worker's calls, and a call that runs on its connection's loop
        // hops between threads only to start and to answer.
        executor = EventLoopTaskExecutor(PostgresClient.defaultEventLoopGroup.next())
        client = PostgresClient(configuration: configuration, eventLoopGroup: executor.loop, backgroundLogger: logger)
        self.location = location
        self.logger = logger
        self.statistics = statistics
        self.callLimit = callLimit
        statements = PostgresStatementCaches(firstPlanRenewal: firstPlanRenewal)
    }

    var hasStoredFunctions: Bool { true }

    /// A call whose connection was cut can wait forever in the pool; a command gives up after this.
    /// Long enough for any statement of the worker and a catalog import of tens of thousands of rows.
    /// Run and timed on the event loop the client's connections run on.
    var callDeadline: DatabaseDeadline? { DatabaseDeadline(limit: callLimit, executor: executor) }

    func read<Result: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result {
        try await withConnection(body)
    }

    func withConnection<Result: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result {
        try await leasing(body)
    }

    func transaction<Result: Sendable>(
        _ body: @escaping @Sendable (any SQLDatabase) async throws -> TransactionEnd<Result>
    ) async throws -> Result {
        try await leasing { try await $0.inTransaction(beginning: "BEGIN", body) }
    }

    /// Runs `body` on a pooled connection, after renewing the connection's plans if they are due
    /// (``PostgresPlanRenewal``), and closes that connection if the call is cancelled (the deadline
    /// gave up on it): a connection whose answer nobody waits for, possibly wedged, would otherwise
    /// stay leased until the server answered, if ever. The pool opens a new one.
    private func leasing<Result: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result {
        await started.pass()
        return try await client.withConnection { connection in
            try await withTaskCancellationHandler {
                let cache = statements.cache(for: connection)
                let base = connection.sql(logger: logger)
                if cache.takePlanRenewal() {
                    // Not counted in the statistics, whose round trips are the commands' own: at most one a
                    // minute on a connection past its first minute.
                    try await base.raw("DISCARD PLANS").run()
                }
                let database = PostgresPreparingDatabase(connection: connection, base: base, statements: cache, statistics: statistics)
                return try await body(database.counted(in: statistics))
            } onCancel: {
                let closing: EventLoopFuture<Void> = connection.close()
                closing.whenComplete { _ in }
            }
        }
    }

    /// A transaction-scoped advisory lock on the schema being migrated: released at commit or rollback,
    /// also when the process dies. Workers of one schema take turns; those of other schemas do not wait.
    /// The connection's `statement_timeout` (``startupParameters(_:callLimit:)``) is raised to `limit` for the
    /// transaction, for the lock's wait and the migration's statements.
    func lockForMigrations(_ database: any SQLDatabase, for limit: Duration) async throws {
        try await database.raw("SET LOCAL statement_timeout = '\(unsafeRaw: String(limit.components.seconds))s'").run()
        try await database.raw("SELECT pg_advisory_xact_lock(hashtext('checkout-worker migrations ' || current_schema()))").run()
    }

    /// Logs in once on a connection of its own, outside the pool, with the pool's settings.
    func checkLogin() async throws {
        var configuration = PostgresConnection.Configuration(
            host: location.host, port: location.port, username: location.username, password: location.password,
            database: location.database, tls: try Self.connectionTLS(location.tls))
        configuration.options.connectTimeout = .seconds(5)
        configuration.options.additionalStartupParameters = Self.startupParameters(location, callLimit: callLimit)
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(on: executor.loop, configuration: configuration, id: 0, logger: logger)
        } catch let error as PSQLError where !DatabaseFault.isTransient(error) {
            let reason = error.serverInfo.map { "\($0[.message] ?? "refused") (SQLSTATE \($0[.sqlState] ?? "?"))" } ?? "\(error.code)"
            throw PersistenceError(
                code: .databaseFailure,
                context: "PostgreSQL at \(location.host):\(location.port) refused user '\(location.username)' on database "
                    + "'\(location.database)': \(reason)",
                underlying: error)
        }
        try? await connection.close()
    }

    /// Asks through the pool the worker uses, so that a pool whose connections are all stuck reads as not
    /// ready; bounded by a few seconds, since the pool would wait for a lost server up to its circuit
    /// breaker (a minute), too long for a readiness probe.
    func checkReachable() async throws {
        let deadline = DatabaseDeadline(limit: min(callLimit, .seconds(5)), executor: executor)
        try await deadline.run("checking that the database answers") {
            try await withConnection { try await $0.raw("SELECT 1").run() }
        }
    }

    /// The client's pool, which ends at graceful shutdown or cancellation. Its tasks (the pool's event
    /// loop of leases and releases, its connects and timers) prefer the connections' event loop, where
    /// every lease and release comes from: on Swift's global executor each woke a thread of its own.
    func run() async {
        await withTaskExecutorPreference(executor) {
            started.open()
            await client.run()
        }
    }

    /// The schema, and server-side bounds: a statement the worker gave up on stops on the server at the
    /// call limit too, instead of holding its locks and its backend while the retries queue behind it,
    /// and a transaction left open by a worker cut off from the server (no FIN ever arrives) releases its
    /// row locks after 30 s. The second is not the call limit: a transaction's gaps between statements
    /// are the client's, and a loaded machine stretches them.
    private static func startupParameters(_ location: PostgresLocation, callLimit: Duration) -> [(String, String)] {
        [("statement_timeout", "\(Int(callLimit / .milliseconds(1)))ms"), ("idle_in_transaction_session_timeout", "30s")]
            + (location.schema.map { [("search_path", $0)] } ?? [])
    }

    private static func connectionTLS(_ mode: PostgresLocation.TLSMode) throws -> PostgresConnection.Configuration.TLS {
        switch mode {
        case .disable: .disable
        case .prefer: .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
        case .require: .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        }
    }

    private static func clientTLS(_ mode: PostgresLocation.TLSMode) -> PostgresClient.Configuration.TLS {
        switch mode {
        case .disable: .disable
        case .prefer: .prefer(.makeClientConfiguration())
        case .require: .require(.makeClientConfiguration())
        }
    }
}
