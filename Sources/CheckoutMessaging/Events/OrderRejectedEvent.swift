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
        json.field("cartId", cartId)
        if let declineCode { json.field("declineCode", declineCode) }
        json.field("message", message)
        if let newTotal { json.field("newTotal", newTotal) }
        json.field("reason", reason)
        if let skus { json.field("skus", array: skus) { $1.string($0) } }
        json.endObject()
    }
}
