/// Everything a sync decides on, read at once by ``SyncCartStore/snapshot(for:cart:currency:skus:)``.
public struct SyncCartSnapshot: Sendable, Equatable {
    /// The command's outcome if it was handled; then nothing else matters.
    public let recorded: RecordedOutcome<SyncCartOutcome>?
    /// The stored cart, or nil if it was never synced.
    public let cart: Cart?
    /// Whether any product is priced in the command's currency; a cart in another is an `invalid-request`.
    public let isCurrencyPriced: Bool
    /// Those of the requested SKUs the catalog knows, active or not.
    public let products: [SKU: Product]

    public init(recorded: RecordedOutcome<SyncCartOutcome>?, cart: Cart?, isCurrencyPriced: Bool, products: [SKU: Product]) {
        self.recorded = recorded
        self.cart = cart
        self.isCurrencyPriced = isCurrencyPriced
        self.products = products
    }
}
