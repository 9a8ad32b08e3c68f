import CheckoutDomain
import CheckoutPersistence
import CheckoutTestSupport
import Foundation
import PostgresNIO
import SQLiteNIO
import Testing

@Suite struct MigrationTests {
    /// Workers starting together all migrate; the lock makes all but one wait and then find nothing to do.
    @Test(arguments: TestDatabase.sql)
    func workersStartingTogetherApplyEachMigrationOnce(database: TestDatabase) async throws {
        try await database.withFreshURL { url in
            let stores = try await withThrowingTaskGroup(of: CheckoutStore.self) { group in
                for _ in 0..<4 {
                    group.addTask { try await CheckoutStore.open(url, poolSize: 2, logger: TestLogger.logger) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let cart = Fixtures.cart()
            _ = try await stores[0].syncCarts.record(Fixtures.synced(cart), digest: nil, for: Fixtures.command())
            #expect(try await stores[3].carts.cart(cart.id) == cart)
            for store in stores {
                await store.close()
            }

            #expect(try await Self.appliedMigrations(database, url: url) == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
        }
    }

    @Test(arguments: TestDatabase.sql)
    func reopeningKeepsTheData(database: TestDatabase) async throws {
        try await database.withFreshURL { url in
            let cart = Fixtures.cart()
            let first = try await CheckoutStore.open(url, poolSize: 1, logger: TestLogger.logger)
            _ = try await first.syncCarts.record(Fixtures.synced(cart), digest: nil, for: Fixtures.command())
            await first.close()

            let second = try await CheckoutStore.open(url, poolSize: 1, logger: TestLogger.logger)
            let stored = try await second.carts.cart(cart.id)
            await second.close()

            #expect(stored == cart)
        }
    }

    @Test func sqliteRunsInWALMode() async throws {
        try await TestDatabase.sqlite.withFreshURL { url in
            let store = try await CheckoutStore.open(url, poolSize: 1, logger: TestLogger.logger)
            await store.close()
            let connection = try await SQLiteConnection.open(storage: .file(path: String(url.dropFirst("sqlite://".count))))
            let mode = try await connection.query("PRAGMA journal_mode").first?.column("journal_mode")?.string
            try await connection.close()

            #expect(mode == "wal")
        }
    }

    /// Ids a sync and an order shared before ids were one space stay the order's: the sync's row is
    /// renamed, and a sync sent again under the id is another command.
    @Test(arguments: TestDatabase.sql)
    func anIDASyncAndAnOrderSharedBeforeIDsWereOneSpaceStaysTheOrders(database: TestDatabase) async throws {
        try await database.withFreshURL { url in
            try await CheckoutStore.open(url, poolSize: 1, logger: TestLogger.logger).close()
            try await Self.run(
                [
                    "DROP INDEX processed_commands_by_id",
                    "DELETE FROM schema_migrations WHERE version = 5",
                    "INSERT INTO processed_commands (kind, command_id, lease_until) VALUES ('sync-cart', 'shared-1', 0)",
                    "INSERT INTO processed_commands (kind, command_id, lease_until) VALUES ('place-order', 'shared-1', 0)",
                    "INSERT INTO processed_commands (kind, command_id, lease_until) VALUES ('sync-cart', 'own-1', 0)",
                ], on: database, url: url)

            let store = try await CheckoutStore.open(url, poolSize: 1, logger: TestLogger.logger)
            let syncAgain = try await store.syncCarts.record(Fixtures.syncRejected(), digest: nil, for: commandID("shared-1"))
            await store.close()

            #expect(syncAgain == .usedByAnotherCommand)
            let rows = try await Self.run(
                ["SELECT kind || ' ' || command_id AS row FROM processed_commands ORDER BY row"], on: database, url: url)
            #expect(rows == ["place-order shared-1", "sync-cart own-1", "sync-cart shared-1 (sync-cart)"])
        }
    }

    private static func appliedMigrations(_ database: TestDatabase, url: String) async throws -> [Int] {
        try await run(["SELECT CAST(version AS TEXT) AS row FROM schema_migrations ORDER BY version"], on: database, url: url).compactMap {
            Int($0)
        }
    }

    /// Runs `statements` on a connection of its own, and returns the `row` column of the last one's rows.
    @discardableResult
    private static func run(_ statements: [String], on database: TestDatabase, url: String) async throws -> [String] {
        var rows: [String] = []
        switch database {
        case .sqlite:
            let connection = try await SQLiteConnection.open(storage: .file(path: String(url.dropFirst("sqlite://".count))))
            do {
                for statement in statements {
                    rows = try await connection.query(statement).compactMap { $0.column("row")?.string }
                }
                try await connection.close()
            } catch {
                try? await connection.close()
                throw error
            }
        case .postgres:
            let schema = String(url[url.range(of: "schema=")!.upperBound...])
            let connection = try await ScratchDatabase.connectToPostgres(schema: schema)
            do {
                for statement in statements {
                    rows = []
                    for try await row in try await connection.query(PostgresQuery(unsafeSQL: statement), logger: TestLogger.logger).decode(
                        String.self)
                    {
                        rows.append(row)
                    }
                }
                try await connection.close()
            } catch {
                try? await connection.close()
                throw error
            }
        case .memory:
            Issue.record("the in-memory store has no migrations")
        }
        return rows
    }
}
