import CheckoutDomain
import CheckoutPersistence
import Foundation
import Testing

/// The rules of ``CartRepository/cartWithProducts(_:)`` that every engine keeps: PlaceOrder's one read.
@Suite struct CartRepositoryContractTests {
    @Test(arguments: TestDatabase.allCases)
    func readsNoCartThatWasNeverSynced(database: TestDatabase) async throws {
        try await database.withStore { store in
            _ = try await store.importCatalog([Fixtures.product("SKU-A")])

            #expect(try await store.carts.cartWithProducts(Fixtures.cart().id) == nil)
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func readsTheCartWithTheProductsOfItsLinesActiveOrNotAndNoOthers(database: TestDatabase) async throws {
        try await database.withStore { store in
            let known = Fixtures.product("SKU-A", price: 1200, stock: 3)
            let retired = Fixtures.product("SKU-B", isActive: false)
            _ = try await store.importCatalog([known, retired, Fixtures.product("SKU-NOT-IN-CART")])
            let cart = Fixtures.cart(
                lines: [Fixtures.line("SKU-A", quantity: 2), Fixtures.line("SKU-B"), Fixtures.line("SKU-UNKNOWN", quantity: 3)])
            let recorded = try await store.syncCarts.record(Fixtures.synced(cart), digest: nil, for: Fixtures.command())
            #expect(recorded == .recorded)

            let read = try await store.carts.cartWithProducts(cart.id)

            #expect(read == CartWithProducts(cart: cart, products: [known.sku: known, retired.sku: retired]))
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func readsACartNoneOfWhoseProductsTheCatalogKnows(database: TestDatabase) async throws {
        try await database.withStore { store in
            let cart = Fixtures.cart(lines: [Fixtures.line("SKU-GONE")])
            let recorded = try await store.syncCarts.record(Fixtures.synced(cart), digest: nil, for: Fixtures.command())
            #expect(recorded == .recorded)

            #expect(try await store.carts.cartWithProducts(cart.id) == CartWithProducts(cart: cart, products: [:]))
        }
    }
}
