/// Why a sync changed a requested line; the raw values are the contract's.
public enum AdjustmentReason: String, Hashable, Codable, Sendable, CaseIterable {
    /// The catalog has no such SKU, or does not price it in the cart's currency: the line is dropped.
    case unknownSKU = "unknown-sku"
    /// The SKU is not on sale: the line is dropped.
    case inactiveSKU = "inactive-sku"
    /// Fewer are in stock than requested: the quantity is lowered to the stock, and the line dropped at 0.
    case clampedToStock = "clamped-to-stock"
    /// The SKU was requested on several lines: they become one, capped at 99.
    case merged
}
