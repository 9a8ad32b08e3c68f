import CheckoutDomain
import Foundation

/// The body of `cart.synced`.
struct CartSyncedEvent: Encodable {
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
}
