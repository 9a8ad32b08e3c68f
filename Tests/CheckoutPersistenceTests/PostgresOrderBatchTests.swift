import CheckoutDomain
import CheckoutTestSupport
import Foundation
import PostgresNIO
import Testing

@testable import CheckoutPersistence

/// Orders placed together on PostgreSQL lock what they write in one order whatever their own, carts
/// then products by SKU, so that two workers' batches wait on each other rather than deadlock.
@Suite struct PostgresOrderBatchTests {
    /// The batch's first order wants only SKU-B, its second only SKU-A, which another transaction
    /// holds. Placing them in turn would hold SKU-B while waiting for SKU-A; the batch waits for
    /// SKU-A before it locks SKU-B.
    @Test func aBatchLocksEveryProductInSKUOrderBeforePlacingAnyOrder() async throws {
        try await ScratchDatabase.with(.postgres) { scratch in
            let store = try await CheckoutStore.open(scratch.url, poolSize: 2, logger: TestLogger.logger)
            let holder = try await ScratchDatabase.connectToPostgres(schema: scratch.schema)
            do {
                _ = try await store.importCatalog([Fixtures.product("SKU-A"), Fixtures.product("SKU-B")])
                let carts = ["SKU-B", "SKU-A"].map { Fixtures.cart(cartID("cart-\($0)"), lines: [Fixtures.line($0)]) }
                for cart in carts {
                    _ = try await store.syncCarts.record(Fixtures.synced(cart), digest: nil, for: Fixtures.command())
                }
                let placements = carts.map { cart in
                    let command = Fixtures.command()
                    let order = Fixtures.order(for: cart, by: command)
                    return SQLOrderPlacement(order: order, cartVersion: 1, outcome: .placed(order: order), commandID: command)
                }
                let executor = try #require(store.orders as? SQLOrders).executor
                try await Self.run("BEGIN", on: holder)
                try await Self.run("SELECT 1 FROM products WHERE sku = 'SKU-A' FOR UPDATE", on: holder)

                let placing = Task {
                    try await executor.autocommit("placing two orders together") { database in
                        try await PostgresOrderBatch.place(placements, kind: "place-order", on: database)
                    }
                }
                try await Self.waitUntilALockIsAwaited(on: holder)
                do {
                    // NOWAIT fails at once where another transaction holds the row.
                    try await Self.run("SELECT 1 FROM products WHERE sku = 'SKU-B' FOR UPDATE NOWAIT", on: holder)
                } catch {
                    Issue.record("the batch held SKU-B while it waited for SKU-A: \(String(reflecting: error))")
                }
                try await Self.run("ROLLBACK", on: holder)

                #expect(try await placing.value.map { try $0.get() } == [.placed, .placed])
                try await holder.close()
                await store.close()
            } catch {
                try? await holder.close()
                await store.close()
                throw error
            }
        }
    }

    /// Runs `sql` to its end: a statement's failure shows once its rows are read.
    private static func run(_ sql: PostgresQuery, on connection: PostgresConnection) async throws {
        for try await _ in try await connection.query(sql, logger: TestLogger.logger) {}
    }

    /// Waits until some transaction waits for a lock (`pg_locks` shows the lock manager as it is, even
    /// inside a transaction), for at most ten seconds.
    private static func waitUntilALockIsAwaited(on connection: PostgresConnection) async throws {
        for _ in 0..<500 {
            let waiting = try await connection.query("SELECT count(*) FROM pg_locks WHERE NOT granted", logger: TestLogger.logger)
            for try await count in waiting.decode(Int.self) where count > 0 { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("no transaction waited for a lock within ten seconds")
    }
}
