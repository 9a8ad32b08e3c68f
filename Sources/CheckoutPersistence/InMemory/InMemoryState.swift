import CheckoutDomain

/// The tables of ``InMemoryDatabase``.
struct InMemoryState: Sendable {
    var carts: [CartID: Cart] = [:]
    private(set) var products: [SKU: Product] = [:]
    /// The currencies of `products`, kept beside them so that a sync need not scan the catalog.
    private(set) var pricedCurrencies: Set<CurrencyCode> = []
    var orders: [OrderID: Order] = [:]
    var syncCartCommands = CommandLog<SyncCartOutcome>()
    var placeOrderCommands = CommandLog<PlaceOrderOutcome>()
    var charges: [CommandID: ChargeRecord] = [:]

    /// Whether a command of another type than `log`'s holds `commandID`: command ids are one space.
    func holds(_ commandID: CommandID, besides log: AnyKeyPath) -> Bool {
        (log != \InMemoryState.syncCartCommands && syncCartCommands.holds(commandID))
            || (log != \InMemoryState.placeOrderCommands && placeOrderCommands.holds(commandID))
    }

    /// Those of `skus` the catalog knows.
    func products(_ skus: Set<SKU>) -> [SKU: Product] {
        var found: [SKU: Product] = [:]
        for sku in skus { found[sku] = products[sku] }
        return found
    }

    /// Inserts or replaces every product; returns how many were new.
    mutating func upsert(_ imported: [Product]) -> Int {
        var inserted = 0
        for product in imported where products.updateValue(product, forKey: product.sku) == nil {
            inserted += 1
        }
        pricedCurrencies = Set(products.values.map(\.price.currency))
        return inserted
    }

    /// Takes `quantity` of a product's stock, which the caller checked is there.
    mutating func takeStock(_ quantity: Int, of sku: SKU) {
        if let product = products[sku] {
            products[sku] = product.withStock(product.stock - quantity)
        }
    }
}
