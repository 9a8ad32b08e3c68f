import CheckoutDomain
import Foundation

/// ``PlaceOrderStore`` over ``InMemoryDatabase``: the claim and the cart in one transaction.
struct InMemoryPlaceOrderStore: PlaceOrderStore {
    let database: InMemoryDatabase

    func claim(
        _ commandID: CommandID, digest: CommandDigest?, at now: Date, leaseUntil: Date, cart cartID: CartID
    ) async throws
        -> PlaceOrderClaim
    {
        try await database.transaction { state in
            let claim = state.placeOrderCommands.claim(commandID, digest: digest, at: now, leaseUntil: leaseUntil)
            guard case .claimed = claim else { return PlaceOrderClaim(claim: claim, cart: nil) }
            return PlaceOrderClaim(claim: claim, cart: state.carts[cartID])
        }
    }
}
