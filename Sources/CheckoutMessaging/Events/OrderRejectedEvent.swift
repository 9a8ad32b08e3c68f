import CheckoutDomain

/// The body of `order.rejected`.
struct OrderRejectedEvent: Encodable {
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
}
