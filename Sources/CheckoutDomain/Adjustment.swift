/// A change a sync made to what the client asked for, reported so the client can show it.
public struct Adjustment: Hashable, Codable, Sendable {
    public let sku: SKU
    public let reason: AdjustmentReason
    public let requested: Int
    /// 0 when the line was dropped.
    public let applied: Int

    public init(sku: SKU, reason: AdjustmentReason, requested: Int, applied: Int) {
        self.sku = sku
        self.reason = reason
        self.requested = requested
        self.applied = applied
    }
}
