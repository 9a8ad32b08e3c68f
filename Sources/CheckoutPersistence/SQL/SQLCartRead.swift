import CheckoutDomain

/// What a claim read with it (``SQLCommandLog/takeClaim(_:digest:at:leaseUntil:isOnlyAttempt:readingCart:on:)``).
struct SQLCartRead: Sendable {
    /// The cart, nil if it was never synced.
    let cart: Cart?
    /// Those of the cart's SKUs the catalog knows; nil when they were not read with the claim.
    let products: [SKU: Product]?
}
