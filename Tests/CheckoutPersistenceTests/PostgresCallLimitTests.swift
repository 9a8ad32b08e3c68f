import CheckoutDomain
import CheckoutTestSupport
import SQLKit
import Testing

@testable import CheckoutPersistence

/// A PostgreSQL call the worker gave up on does not keep its connection: the pool serves the next
/// call at once, and readiness asks through that same pool.
@Suite struct PostgresCallLimitTests {
    @Test func aCallAbandonedAtItsLimitGivesItsConnectionUpAndTheNextCallIsServed() async throws {
        try await Self.withEngine(callLimit: .seconds(3)) { engine in
            let executor = SQLExecutor(engine: engine)
            try await engine.whileRunning {
                let error = await #expect(throws: RetryableError.self) {
                    try await executor.read("a call that outlives its limit") { try await $0.raw("SELECT pg_sleep(60)").run() }
                }
                #expect(error?.code == .databaseUnavailable)

                // The pool's only connection was the stuck one: the next call is served only if it was closed and replaced.
                let deadline = ContinuousClock.now + .seconds(20)
                var served = false
                while !served, ContinuousClock.now < deadline {
                    served = (try? await executor.read("the next call") { try await $0.raw("SELECT 1").run() }) != nil
                }
                #expect(served, "the pool served nothing for 20 s after the abandoned call")
                try await engine.checkReachable()
            }
        }
    }

    /// A closed connection does not stop its backend's statement (PostgreSQL notices only when it next
    /// writes to the socket), so the server's own bound has to be the call limit: a backend left
    /// running would hold its locks, and a connection slot, while the retries queue behind it.
    @Test func theServerEndsAStatementAbandonedAtTheCallLimit() async throws {
        try await Self.withEngine(callLimit: .seconds(2)) { engine in
            let executor = SQLExecutor(engine: engine)
            let abandoned = "SELECT pg_sleep(45.\(UInt16.random(in: 1 ... .max)))"
            try await engine.whileRunning {
                await #expect(throws: RetryableError.self) {
                    try await executor.read("a call that outlives its limit") { try await $0.raw("\(unsafeRaw: abandoned)").run() }
                }

                let deadline = ContinuousClock.now + .seconds(15)
                var running = 1
                while running > 0, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(250))
                    running = try await engine.withConnection { database in
                        try await database.raw(
                            "SELECT count(*) AS running FROM pg_stat_activity WHERE query = \(bind: abandoned) AND state = 'active'"
                        )
                        .first()?.decode(column: "running", as: Int.self) ?? 0
                    }
                }
                #expect(running == 0, "the abandoned statement still ran on the server 15 s after its call gave up")
            }
        }
    }

    /// A migration may outlast the call limit: building an index over every command handled can take
    /// minutes, and a worker that gave up on it at the call limit could never start.
    @Test func aMigrationOutlastsTheCallLimit() async throws {
        try await Self.withEngine(callLimit: .seconds(1)) { engine in
            let slow = Migration(version: 1, name: "slow", statements: ["SELECT pg_sleep(2)"])
            try await engine.whileRunning {
                try await Migrator(engine: engine, migrations: [slow], logger: TestLogger.logger).migrate()

                // The server's own bound is raised for the migration's transaction only, on the pool's one connection.
                let during = try await engine.transaction { database in
                    try await engine.lockForMigrations(database, for: Migrator.limit)
                    return .commit(try await Self.statementTimeout(on: database))
                }
                let after = try await engine.withConnection { try await Self.statementTimeout(on: $0) }
                #expect(during == "1h")
                #expect(after == "1s")
            }
        }
    }

    /// A catalog is one transaction: one of many products, which takes longer to write than the call
    /// limit, was abandoned half way, and nothing was imported.
    @Test func aLargeCatalogImportOutlastsTheCallLimit() async throws {
        try await Self.withEngine(callLimit: .seconds(1)) { engine in
            let backend = SQLStoreBackend(
                executor: SQLExecutor(engine: engine), liveness: SQLWorkerLiveness(worker: "catalog-import"),
                migrator: Migrator(engine: engine, migrations: Migrations.all, logger: TestLogger.logger), isSingleProcess: false)
            let products = try (0..<50_000).map {
                try Product(
                    sku: SKU("SKU-\($0)"), name: "Product \($0)", price: Money(minorUnits: 1999, currency: CurrencyCode("EUR")), stock: 10,
                    isActive: true)
            }
            try await engine.whileRunning {
                try await backend.migrator.migrate()
                let started = ContinuousClock.now

                let report = try await backend.importCatalog(products)

                #expect(ContinuousClock.now - started > .seconds(1), "the import must outlast the call limit to show anything")
                #expect(report == CatalogImportReport(inserted: 50_000, updated: 0))
            }
        }
    }

    /// Runs `body` with an engine of one connection over a schema of its own.
    private static func withEngine(callLimit: Duration, _ body: (PostgresEngine) async throws -> Void) async throws {
        try await ScratchDatabase.with(.postgres) { database in
            guard case .postgres(let location) = try DatabaseURL(database.url) else {
                Issue.record("the test URL is not a PostgreSQL URL")
                return
            }
            try await body(
                PostgresEngine(location, poolSize: 1, logger: TestLogger.logger, statistics: DatabaseStatistics(), callLimit: callLimit))
        }
    }

    private static func statementTimeout(on database: any SQLDatabase) async throws -> String? {
        try await database.raw("SHOW statement_timeout").first()?.decode(column: "statement_timeout", as: String.self)
    }
}
