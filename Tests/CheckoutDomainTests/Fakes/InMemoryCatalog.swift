import CheckoutDomain

/// ``ProductCatalog`` over ``InMemoryDatabase``; fails loudly if the test never stocked it.
struct InMemoryCatalog: ProductCatalog {
    let database: InMemoryDatabase

    func products(_ skus: Set<SKU>) async throws -> [SKU: Product] {
        try await stocked().filter { skus.contains($0.key) }
    }

    /// Every product of the catalog.
    func stocked() async throws -> [SKU: Product] {
        guard let products = try await database.transaction(.loadProducts, { $0.products }) else {
            throw UnconfiguredFake("the catalog was read but never stocked")
        }
        return products
    }
}
