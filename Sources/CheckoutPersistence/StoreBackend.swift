import CheckoutDomain

/// What ``CheckoutStore`` needs of an engine beyond the domain's ports.
protocol StoreBackend: Sendable {
    func importCatalog(_ products: [Product]) async throws -> CatalogImportReport
    func orders(forCart cartID: CartID) async throws -> [Order]
    func checkReachable() async throws
    func close() async
}
