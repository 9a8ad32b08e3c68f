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
        json.field("cartId", cartId)
        if let currentVersion { json.field("currentVersion", currentVersion) }
        json.field("message", message)
        json.field("reason", reason)
        json.endObject()
    }
}
