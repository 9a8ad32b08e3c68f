import CheckoutDomain

/// What a claim read with it, and wrote of its charge
/// (``SQLCommandLog/takeClaim(_:on:)``).
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

    /// The same read, with `charge` as what the claim wrote.
    func recording(_ charge: ChargeRecord?) -> SQLCartRead {
        SQLCartRead(cart: cart, products: products, recordedCharge: charge)
    }
}
