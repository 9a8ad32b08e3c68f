/// An accepted sync: the cart as stored and what was changed from the request; the body of `cart.synced`.
public struct SyncedCart: Hashable, Codable, Sendable {
    public let cart: Cart
    public let adjustments: [Adjustment]

    public init(cart: Cart, adjustments: [Adjustment]) {
        self.cart = cart
        self.adjustments = adjustments
    }
}
