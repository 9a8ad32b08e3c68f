import CheckoutDomain

/// ``ProductCatalog`` over ``InMemoryDatabase``; fails loudly if the test never stocked it.
struct InMemoryCatalog: ProductCatalog {
    let database: InMemoryDatabase

    func isPriced(in currency: CurrencyCode) async throws -> Bool {
        try await products().values.contains { $0.price.currency == currency }
    }

    func products(_ skus: Set<SKU>) async throws -> [SKU: Product] {
        try await products().filter { skus.contains($0.key) }
    }

    private func products() async throws -> [SKU: Product] {
        guard let products = try await database.transaction(.loadProducts, { $0.products }) else {
            throw UnconfiguredFake("the catalog was read but never stocked")
        }
        return products
    }
}
