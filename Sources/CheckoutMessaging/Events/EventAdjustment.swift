import CheckoutDomain
import JSONWriting

/// A change the sync made to a requested line, as `cart.synced` lists it.
struct EventAdjustment {
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

    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("applied", applied)
        json.field("reason", reason)
        json.field("requested", requested)
        json.field("sku", sku)
        json.endObject()
    }
}
