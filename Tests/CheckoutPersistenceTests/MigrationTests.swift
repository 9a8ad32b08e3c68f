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

            #expect(try await Self.appliedMigrations(database, url: url) == [1, 2, 3, 4])
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

    private static func appliedMigrations(_ database: TestDatabase, url: String) async throws -> [Int] {
        let sql = "SELECT version FROM schema_migrations ORDER BY version"
        switch database {
        case .sqlite:
            let connection = try await SQLiteConnection.open(storage: .file(path: String(url.dropFirst("sqlite://".count))))
            let rows = try await connection.query(sql)
            try await connection.close()
            return rows.compactMap { $0.column("version")?.integer }
        case .postgres:
            let schema = String(url[url.range(of: "schema=")!.upperBound...])
            let connection = try await ScratchDatabase.connectToPostgres(schema: schema)
            var versions: [Int] = []
            do {
                for try await version in try await connection.query(PostgresQuery(unsafeSQL: sql), logger: TestLogger.logger).decode(
                    Int.self)
                {
                    versions.append(version)
                }
                try await connection.close()
            } catch {
                try? await connection.close()
                throw error
            }
            return versions
        case .memory:
            Issue.record("the in-memory store has no migrations")
            return []
        }
    }
}
