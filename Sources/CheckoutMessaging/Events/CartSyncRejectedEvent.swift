import CheckoutDomain
import JSONWriting

/// The body of `cart.sync-rejected`.
struct CartSyncRejectedEvent: EventBody {
    let cartId: String
    let reason: String
    let message: String
    let currentVersion: Int?

    init(_ rejection: SyncCartRejection) {
        cartId = rejection.cartID
        reason = rejection.reason.rawValue
        message = rejection.message
        currentVersion = rejection.currentVersion
    }

    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.key("cartId")
        json.string(cartId)
        if let currentVersion {
            json.key("currentVersion")
            json.integer(currentVersion)
        }
        json.key("message")
        json.string(message)
        json.key("reason")
        json.string(reason)
        json.endObject()
    }
}
