import CheckoutDomain
import CheckoutPersistence
import CheckoutTestSupport
import Testing

/// The rules of ``ProductCatalog`` that every engine keeps.
@Suite struct ProductCatalogContractTests {
    @Test(arguments: TestDatabase.allCases)
    func returnsTheKnownProductsAmongTheAskedSKUsActiveOrNot(database: TestDatabase) async throws {
        try await database.withStore { store in
            let active = Fixtures.product("SKU-A", price: 1999, stock: 3)
            let inactive = Fixtures.product("SKU-OFF", isActive: false)
            _ = try await store.importCatalog([active, inactive, Fixtures.product("SKU-OTHER")])

            let products = try await store.catalog.products([active.sku, inactive.sku, sku("SKU-UNKNOWN")])

            #expect(products == [active.sku: active, inactive.sku: inactive])
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func answersNothingForNoSKUs(database: TestDatabase) async throws {
        try await database.withStore { store in
            _ = try await store.importCatalog([Fixtures.product("SKU-A")])

            #expect(try await store.catalog.products([]) == [:])
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func readsManySKUsAtOnce(database: TestDatabase) async throws {
        try await database.withStore { store in
            let products = (0..<1_200).map { Fixtures.product("SKU-\($0)") }
            _ = try await store.importCatalog(products)

            let found = try await store.catalog.products(Set(products.map(\.sku)))

            #expect(found.count == 1_200)
        }
    }
}
