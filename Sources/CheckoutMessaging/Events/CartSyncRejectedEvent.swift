import CheckoutDomain

/// The body of `cart.sync-rejected`.
struct CartSyncRejectedEvent: Encodable {
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
}
