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
        json.key("orderId")
        json.string(orderId)
        json.key("paymentId")
        json.string(paymentId)
        json.key("placedAt")
        json.timestamp(placedAt)
        json.key("total")
        json.integer(total)
        json.endObject()
    }
}
