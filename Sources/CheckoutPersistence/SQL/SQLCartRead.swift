import CheckoutDomain

/// What a claim read with it, and wrote of its charge
/// (``SQLCommandLog/takeClaim(_:digest:at:leaseUntil:isOnlyAttempt:readingCart:chargeRequest:on:)``).
struct SQLCartRead: Sendable {
    /// The cart, nil if it was never synced.
    let cart: Cart?
    /// Those of the cart's SKUs the catalog knows; nil when they were not read with the claim.
    let products: [SKU: Product]?
    /// What the claim's `chargeRequest` answered, written as the command's charge; nil when nothing was.
    let recordedCharge: ChargeRecord?

    init(cart: Cart?, products: [SKU: Product]?, recordedCharge: ChargeRecord? = nil) {
        self.cart = cart
        self.products = products
        self.recordedCharge = recordedCharge
    }
}
