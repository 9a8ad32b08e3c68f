import CheckoutDomain

/// The state of the `memory://` store, changed only inside ``transaction(_:)``.
///
/// One actor for every table, so that a port call touching several tables (an order, its stock and
/// its command's outcome) is one atomic step, as a transaction is in SQL.
actor InMemoryDatabase: StoreBackend {
    private var state = InMemoryState()

    /// Runs `body` atomically; if it throws, nothing it changed is kept.
    func transaction<Result: Sendable>(_ body: @Sendable (inout InMemoryState) throws -> Result) throws -> Result {
        var copy = state
        let result = try body(&copy)
        state = copy
        return result
    }

    func importCatalog(_ products: [Product]) -> CatalogImportReport {
        var inserted = 0
        for product in products {
            if state.products.updateValue(product, forKey: product.sku) == nil {
                inserted += 1
            }
        }
        return CatalogImportReport(inserted: inserted, updated: products.count - inserted)
    }

    func orders(forCart cartID: CartID) -> [Order] {
        state.orders.values.filter { $0.cartID == cartID }.sorted { ($0.placedAt, $0.id) < ($1.placedAt, $1.id) }
    }

    func checkReachable() {}

    func close() {}
}
