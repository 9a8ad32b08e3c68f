import CheckoutDomain
import Foundation

/// ``PlaceOrderStore`` over ``InMemoryDatabase``: the claim, the cart and its products in one transaction.
struct InMemoryPlaceOrderStore: PlaceOrderStore {
    let database: InMemoryDatabase

    func claim(
        _ commandID: CommandID, digest: CommandDigest?, at now: Date, leaseUntil: Date, cart cartID: CartID
    ) async throws
        -> PlaceOrderClaim
    {
        try await database.transaction { state in
            guard !state.holds(commandID, besides: \InMemoryState.placeOrderCommands) else {
                return PlaceOrderClaim(claim: .conflicting, cart: nil)
            }
            let claim = state.placeOrderCommands.claim(commandID, digest: digest, at: now, leaseUntil: leaseUntil)
            guard case .claimed = claim else { return PlaceOrderClaim(claim: claim, cart: nil) }
            let cart = state.carts[cartID]
            return PlaceOrderClaim(claim: claim, cart: cart, products: cart.map { state.products(Set($0.lines.map(\.sku))) })
        }
    }
}
