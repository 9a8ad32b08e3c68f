import CheckoutDomain

/// A change the sync made to a requested line, as `cart.synced` lists it.
struct EventAdjustment: Encodable {
    let sku: String
    let reason: String
    let requested: Int
    let applied: Int

    init(_ adjustment: Adjustment) {
        sku = adjustment.sku.rawValue
        reason = adjustment.reason.rawValue
        requested = adjustment.requested
        applied = adjustment.applied
    }
}
