import CheckoutDomain

/// ``ProductCatalog`` over ``InMemoryDatabase``.
struct InMemoryCatalog: ProductCatalog {
    let database: InMemoryDatabase

    func isPriced(in currency: CurrencyCode) async throws -> Bool {
        try await database.transaction { $0.products.values.contains { $0.price.currency == currency } }
    }

    func products(_ skus: Set<SKU>) async throws -> [SKU: Product] {
        try await database.transaction { state in
            var found: [SKU: Product] = [:]
            for sku in skus { found[sku] = state.products[sku] }
            return found
        }
    }
}
