import CheckoutDomain
import Foundation

/// ``PlaceOrderStore`` over ``InMemoryDatabase``: the claim, the cart, its products and the charge's
/// request, or the charge an earlier attempt recorded, in one transaction.
struct InMemoryPlaceOrderStore: PlaceOrderStore {
    let database: InMemoryDatabase

    func claim(
        _ commandID: CommandID, digest: CommandDigest?, at now: Date, leaseUntil: Date, cart cartID: CartID,
        chargeRequest: @escaping @Sendable (Cart, [SKU: Product]) -> ChargeRecord?
    ) async throws
        -> PlaceOrderClaim
    {
        try await database.transaction { state in
            guard !state.holds(commandID, besides: \InMemoryState.placeOrderCommands) else {
                return PlaceOrderClaim(claim: .conflicting, cart: nil)
            }
            let claim = state.placeOrderCommands.claim(commandID, digest: digest, at: now, leaseUntil: leaseUntil)
            guard case .claimed = claim else { return PlaceOrderClaim(claim: claim, cart: nil) }
            guard let cart = state.carts[cartID] else { return PlaceOrderClaim(claim: claim, cart: nil) }
            let products = state.products(Set(cart.lines.map(\.sku)))
            if let earlier = state.charges[commandID] {
                return PlaceOrderClaim(claim: claim, cart: cart, products: products, earlierCharge: earlier)
            }
            let charge = chargeRequest(cart, products)
            state.charges[commandID] = charge
            return PlaceOrderClaim(claim: claim, cart: cart, products: products, recordedCharge: charge)
        }
    }
}
