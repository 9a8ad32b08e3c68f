import CheckoutDomain

/// ``ProductCatalog`` over ``InMemoryDatabase``.
struct InMemoryCatalog: ProductCatalog {
    let database: InMemoryDatabase

    func products(_ skus: Set<SKU>) async throws -> [SKU: Product] {
        try await database.transaction { $0.products(skus) }
    }
}
