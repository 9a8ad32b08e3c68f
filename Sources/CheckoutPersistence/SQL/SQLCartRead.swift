import CheckoutDomain

/// What a claim read with it, and left of its charge
/// (``SQLCommandLog/takeClaim(_:on:)``).
struct SQLCartRead: Sendable {
    /// The cart, nil if it was never synced.
    let cart: Cart?
    /// Those of the cart's SKUs the catalog knows; nil when they were not read with the claim.
    let products: [SKU: Product]?
    /// What the claim's `chargeRequest` answered, written as the command's charge; nil when nothing was.
    let recordedCharge: ChargeRecord?
    /// What an earlier attempt recorded of the command's charge, which the claim kept.
    let earlierCharge: ChargeRecord?

    init(cart: Cart?, products: [SKU: Product]?, recordedCharge: ChargeRecord? = nil, earlierCharge: ChargeRecord? = nil) {
        self.cart = cart
        self.products = products
        self.recordedCharge = recordedCharge
        self.earlierCharge = earlierCharge
    }

    /// The same read, with what the claim left as the command's charge in `row`'s `charge` column
    /// (NULL or `''` for none): the charge `offered`, whose stored JSON is `offeredJSON`, when the claim
    /// wrote it; an earlier attempt's, which the claim kept, otherwise. An earlier record of the very
    /// same JSON reads as written by this claim, which would have written just that.
    func claimed(offering offered: ChargeRecord?, as offeredJSON: String?, leaving row: StoredRow) throws -> SQLCartRead {
        let stored = try row.value("charge", as: String?.self)
        guard let stored, !stored.isEmpty, stored != offeredJSON else {
            return SQLCartRead(cart: cart, products: products, recordedCharge: offered)
        }
        return SQLCartRead(cart: cart, products: products, earlierCharge: try row.json("charge", as: ChargeRecord.self))
    }
}
