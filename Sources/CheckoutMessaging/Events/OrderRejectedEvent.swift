import CheckoutDomain
import JSONWriting

/// The body of `order.rejected`.
struct OrderRejectedEvent: EventBody {
    let cartId: String
    let reason: String
    let message: String
    let newTotal: Int64?
    let skus: [String]?
    let declineCode: String?

    init(_ rejection: PlaceOrderRejection) {
        cartId = rejection.cartID
        reason = rejection.reason.rawValue
        message = rejection.message
        newTotal = rejection.newTotal?.minorUnits
        skus = rejection.skus?.map(\.rawValue)
        declineCode = rejection.declineCode?.rawValue
    }

    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.key("cartId")
        json.string(cartId)
        if let declineCode {
            json.key("declineCode")
            json.string(declineCode)
        }
        json.key("message")
        json.string(message)
        if let newTotal {
            json.key("newTotal")
            json.integer(newTotal)
        }
        json.key("reason")
        json.string(reason)
        if let skus {
            json.key("skus")
            json.beginArray()
            for sku in skus { json.string(sku) }
            json.endArray()
        }
        json.endObject()
    }
}
