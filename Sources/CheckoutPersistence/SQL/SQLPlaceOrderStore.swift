import CheckoutDomain
import Foundation

/// ``PlaceOrderStore`` over `processed_commands` and `carts`: on PostgreSQL the claim and the cart are
/// one statement; SQLite reads the cart after the claim, on the same connection.
struct SQLPlaceOrderStore: PlaceOrderStore {
    let commands: SQLProcessedCommands<PlaceOrderOutcome>

    func claim(
        _ commandID: CommandID, digest: CommandDigest?, at now: Date, leaseUntil: Date, cart cartID: CartID
    ) async throws
        -> PlaceOrderClaim
    {
        let (claim, cart) = try await commands.claim(commandID, digest: digest, at: now, leaseUntil: leaseUntil, readingCart: cartID)
        return PlaceOrderClaim(claim: claim, cart: cart)
    }
}
