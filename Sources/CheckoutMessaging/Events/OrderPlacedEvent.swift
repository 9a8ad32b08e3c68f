import CheckoutDomain
import Foundation

/// The body of `order.placed`.
struct OrderPlacedEvent: Encodable {
    let orderId: String
    let cartId: String
    let customerId: String
    let items: [EventLine]
    let total: Int64
    let currency: String
    let paymentId: String
    let placedAt: Date

    init(_ order: Order) {
        orderId = order.id.rawValue
        cartId = order.cartID.rawValue
        customerId = order.customerID.rawValue
        items = order.lines.map(EventLine.init)
        total = order.total.minorUnits
        currency = order.total.currency.rawValue
        paymentId = order.payment.id.rawValue
        placedAt = order.placedAt
    }
}
