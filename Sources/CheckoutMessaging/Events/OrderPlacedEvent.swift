import CheckoutDomain
import Foundation
import JSONWriting

/// The body of `order.placed`.
struct OrderPlacedEvent: EventBody {
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

    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("cartId", cartId)
        json.field("currency", currency)
        json.field("customerId", customerId)
        json.field("items", array: items) { $0.write(to: &$1) }
        json.field("orderId", orderId)
        json.field("paymentId", paymentId)
        json.field("placedAt", timestamp: placedAt)
        json.field("total", total)
        json.endObject()
    }
}
