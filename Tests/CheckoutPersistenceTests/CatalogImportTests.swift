import CheckoutDomain
import CheckoutPersistence
import CheckoutTestSupport
import Foundation
import Testing

@Suite struct CatalogImportTests {
    @Test(arguments: TestDatabase.allCases)
    func reportsHowManyProductsWereInsertedAndHowManyUpdated(database: TestDatabase) async throws {
        try await database.withStore { store in
            let first = try await store.importCatalog([Fixtures.product("SKU-A"), Fixtures.product("SKU-B")])
            let changed = Fixtures.product("SKU-B", price: 1250, stock: 0, isActive: false)

            let second = try await store.importCatalog([changed, Fixtures.product("SKU-C")])

            #expect(first == CatalogImportReport(inserted: 2, updated: 0))
            #expect(second == CatalogImportReport(inserted: 1, updated: 1))
            #expect(try await store.catalog.products([changed.sku]) == [changed.sku: changed])
        }
    }

    /// As if the rows were written one by one: the SKU is inserted once, and its last row is what stays.
    @Test(arguments: TestDatabase.allCases)
    func aSKUGivenTwiceInOneImportKeepsItsLastRow(database: TestDatabase) async throws {
        try await database.withStore { store in
            let last = Fixtures.product("SKU-A", price: 700, stock: 3)

            let report = try await store.importCatalog([Fixtures.product("SKU-A"), Fixtures.product("SKU-B"), last, last])

            #expect(report == CatalogImportReport(inserted: 2, updated: 2))
            #expect(try await store.catalog.products([last.sku]) == [last.sku: last])
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func importsTheDemoCatalog(database: TestDatabase) async throws {
        try await database.withStore { store in
            let products = try CatalogFile.decode(Data(contentsOf: Self.demoCatalog))

            let report = try await store.importCatalog(products)

            #expect(report == CatalogImportReport(inserted: products.count, updated: 0))
            #expect(try await store.catalog.products(Set(products.map(\.sku))).count == products.count)
        }
    }

    /// A row the database refuses (negative stock breaks a `CHECK`) fails the whole import.
    @Test(arguments: TestDatabase.sql)
    func aRowTheDatabaseRefusesRollsBackTheWholeImport(database: TestDatabase) async throws {
        try await database.withStore { store in
            await #expect(throws: PersistenceError.self) {
                try await store.importCatalog([Fixtures.product("SKU-A"), Fixtures.product("SKU-B", stock: -1)])
            }

            let products = try await store.catalog.products([sku("SKU-A")])
            #expect(products.isEmpty)
        }
    }

    static let demoCatalog = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("demo-catalog.json")
}
