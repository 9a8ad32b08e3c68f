import CheckoutTestSupport
import Foundation
import Logging
import SQLKit
import Testing

@testable import CheckoutPersistence

/// A database of one test's own for the executable's `CHECKOUT_DATABASE_URL` (a ``ScratchDatabase``).
/// The test reads back what the worker stored with plain SQL, table by table, so a half-written order
/// cannot hide behind the repositories' reading code.
struct TestDatabase: Sendable {
    typealias Engine = ScratchDatabase.Engine

    private let scratch: ScratchDatabase
    var engine: Engine { scratch.engine }
    var url: String { scratch.url }

    /// A fresh, empty database; the worker migrates it when it starts.
    static func make(_ engine: Engine) async throws -> TestDatabase {
        TestDatabase(scratch: try await ScratchDatabase.make(engine))
    }

    /// Removes the file or drops the schema.
    func drop() async {
        await scratch.drop()
    }

    /// What the tables hold now.
    func snapshot() async throws -> StoreSnapshot {
        try await Self.withEngine(url) { database in
            var snapshot = StoreSnapshot()
            for row in try await database.raw("SELECT id, cart_id FROM orders").all() {
                snapshot.cartOfOrder[try row.decode(column: "id", as: String.self)] = try row.decode(column: "cart_id", as: String.self)
            }
            for row in try await database.raw("SELECT order_id, COUNT(*) AS lines FROM order_lines GROUP BY order_id").all() {
                snapshot.linesOfOrder[try row.decode(column: "order_id", as: String.self)] = try row.decode(column: "lines", as: Int.self)
            }
            for row in try await database.raw("SELECT sku, stock FROM products").all() {
                snapshot.stock[try row.decode(column: "sku", as: String.self)] = try row.decode(column: "stock", as: Int.self)
            }
            for row in try await database.raw("SELECT sku, CAST(SUM(quantity) AS BIGINT) AS quantity FROM order_lines GROUP BY sku").all() {
                snapshot.orderedQuantity[try row.decode(column: "sku", as: String.self)] = try row.decode(column: "quantity", as: Int.self)
            }
            for row in try await database.raw(
                "SELECT kind, COUNT(*) AS handled FROM processed_commands WHERE outcome IS NOT NULL GROUP BY kind"
            ).all() {
                snapshot.handledCommands[try row.decode(column: "kind", as: String.self)] = try row.decode(column: "handled", as: Int.self)
            }
            snapshot.unfinishedClaims =
                try await database.raw("SELECT COUNT(*) AS claims FROM processed_commands WHERE outcome IS NULL")
                .first()?.decode(column: "claims", as: Int.self) ?? 0
            return snapshot
        }
    }

    /// Runs `body` on one connection of the database at `url`, through the store's own engines.
    static func withEngine<Result: Sendable>(
        _ url: String, _ body: @escaping @Sendable (any SQLDatabase) async throws -> Result
    ) async throws -> Result {
        let engine: any SQLEngine =
            switch try DatabaseURL(url) {
            case .sqlite(let path): SQLiteEngine(path: path, readers: 1, logger: TestWorld.logger, statistics: DatabaseStatistics())
            case .postgres(let location): PostgresEngine(location, poolSize: 1, logger: TestWorld.logger, statistics: DatabaseStatistics())
            case .memory: throw DatabaseURLError(code: .unsupportedScheme, reason: "is memory://, which no other process can read")
            }
        return try await engine.whileRunning { try await engine.withConnection(body) }
    }
}
