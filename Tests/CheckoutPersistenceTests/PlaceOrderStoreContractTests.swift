import CheckoutDomain
import CheckoutPersistence
import CheckoutTestSupport
import Foundation
import PostgresNIO
import Testing

/// The rules of ``PlaceOrderStore`` that every engine keeps: the claim is ``ProcessedCommands``'
/// (``ProcessedCommandsContractTests``), and the cart comes with it only when the command is claimed.
@Suite struct PlaceOrderStoreContractTests {
    private let now = Fixtures.now

    /// SQLite leaves the products to the catalog: read with the claim, they would be read on its one writer.
    @Test(arguments: TestDatabase.allCases)
    func aClaimedCommandComesWithTheStoredCartAndItsProducts(database: TestDatabase) async throws {
        try await database.withStore { store in
            let known = Fixtures.product("SKU-A")
            _ = try await store.importCatalog([known, Fixtures.product("SKU-C")])
            let cart = Fixtures.cart(version: 2, lines: [Fixtures.line("SKU-A", quantity: 2), Fixtures.line("SKU-B")])
            _ = try await store.syncCarts.record(Fixtures.synced(Fixtures.cart(version: 1)), digest: nil, for: Fixtures.command())
            _ = try await store.syncCarts.record(Fixtures.synced(cart), digest: nil, for: Fixtures.command())

            let start = try await store.placeOrders.claim(Fixtures.command(), digest: nil, at: now, leaseUntil: now + 60, cart: cart.id)

            let products = database == .sqlite ? nil : [known.sku: known]
            #expect(start == PlaceOrderClaim(claim: .claimed, cart: cart, products: products))
        }
    }

    /// A cart written by a worker of the version before, during a rolling upgrade, has no `skus`.
    @Test func aCartWrittenWithoutItsSKUsComesWithoutProductsOnPostgreSQL() async throws {
        try await TestDatabase.postgres.withFreshURL { url in
            let store = try await CheckoutStore.open(url, poolSize: 1, logger: TestLogger.logger)
            let cart = Fixtures.cart()
            _ = try await store.importCatalog([Fixtures.product("SKU-A")])
            _ = try await store.syncCarts.record(Fixtures.synced(cart), digest: nil, for: Fixtures.command())
            try await Self.forgetTheSKUsOfEveryCart(inSchemaOf: url)

            let start = try await store.placeOrders.claim(Fixtures.command(), digest: nil, at: now, leaseUntil: now + 60, cart: cart.id)
            await store.close()

            #expect(start == PlaceOrderClaim(claim: .claimed, cart: cart, products: nil))
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func aClaimedCommandOfACartNeverSyncedComesWithNone(database: TestDatabase) async throws {
        try await database.withStore { store in
            let start = try await store.placeOrders.claim(
                Fixtures.command(), digest: nil, at: now, leaseUntil: now + 60, cart: CartID("never-synced"))

            #expect(start == PlaceOrderClaim(claim: .claimed, cart: nil))
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func aCommandAnotherAttemptHoldsComesWithoutTheCart(database: TestDatabase) async throws {
        try await database.withStore { store in
            let cart = Fixtures.cart(version: 1)
            _ = try await store.syncCarts.record(Fixtures.synced(cart), digest: nil, for: Fixtures.command())
            let command = Fixtures.command()
            _ = try await store.placeOrders.claim(command, digest: nil, at: now, leaseUntil: now + 60, cart: cart.id)

            let start = try await store.placeOrders.claim(command, digest: nil, at: now + 1, leaseUntil: now + 61, cart: cart.id)

            #expect(start == PlaceOrderClaim(claim: .inProgress(until: now + 60), cart: nil))
        }
    }

    private static func forgetTheSKUsOfEveryCart(inSchemaOf url: String) async throws {
        let start = try #require(url.range(of: "schema=")).upperBound
        let schema = String(url[start...].prefix { $0 != "&" })
        let connection = try await ScratchDatabase.connectToPostgres(schema: schema)
        do {
            try await connection.query("UPDATE carts SET skus = NULL", logger: TestLogger.logger)
            try await connection.close()
        } catch {
            try? await connection.close()
            throw error
        }
    }
}
