/// What the shop sells today: prices, stock and whether a product is on sale.
public protocol ProductCatalog: Sendable {
    /// The products among `skus` the catalog knows, active or not; unknown SKUs are absent.
    func products(_ skus: Set<SKU>) async throws -> [SKU: Product]
}
