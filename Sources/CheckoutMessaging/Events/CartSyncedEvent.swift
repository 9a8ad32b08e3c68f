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
        json.key("adjustments")
        json.beginArray()
        for adjustment in adjustments { adjustment.write(to: &json) }
        json.endArray()
        json.key("cartId")
        json.string(cartId)
        json.key("currency")
        json.string(currency)
        json.key("customerId")
        json.string(customerId)
        json.key("items")
        json.beginArray()
        for item in items { item.write(to: &json) }
        json.endArray()
        json.key("subtotal")
        json.integer(subtotal)
        json.key("syncedAt")
        json.timestamp(syncedAt)
        json.key("version")
        json.integer(version)
        json.endObject()
    }
}
