import CheckoutDomain
import Foundation
import JSONWriting

/// The body of `cart.synced`.
struct CartSyncedEvent: EventBody {
    let cartId: String
    let customerId: String
    let version: Int
    let currency: String
    let items: [EventLine]
    let subtotal: Int64
    let adjustments: [EventAdjustment]
    let syncedAt: Date

    init(_ synced: SyncedCart) {
        let cart = synced.cart
        cartId = cart.id.rawValue
        customerId = cart.customerID.rawValue
        version = cart.version
        currency = cart.currency.rawValue
        items = cart.lines.map(EventLine.init)
        subtotal = cart.subtotal.minorUnits
        adjustments = synced.adjustments.map(EventAdjustment.init)
        syncedAt = cart.syncedAt
    }

    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("adjustments", array: adjustments) { $0.write(to: &$1) }
        json.field("cartId", cartId)
        json.field("currency", currency)
        json.field("customerId", customerId)
        json.field("items", array: items) { $0.write(to: &$1) }
        json.field("subtotal", subtotal)
        json.field("syncedAt", timestamp: syncedAt)
        json.field("version", version)
        json.endObject()
    }
}
