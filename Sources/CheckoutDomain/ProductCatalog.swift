/// What the shop sells today: prices, stock and whether a product is on sale.
public protocol ProductCatalog: Sendable {
    /// Whether any product is priced in `currency`; a cart in another currency is an `invalid-request`.
    func isPriced(in currency: CurrencyCode) async throws -> Bool

    /// The products among `skus` the catalog knows, active or not; unknown SKUs are absent.
    func products(_ skus: Set<SKU>) async throws -> [SKU: Product]
}
