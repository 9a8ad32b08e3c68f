import CheckoutDomain
import Foundation

/// ``PlaceOrderStore`` over `processed_commands`, `carts` and `products`: on PostgreSQL the cart and
/// its products are one statement and the claim with the charge's request the next, on the same
/// connection, both shared by the claims that arrive together; on SQLite all of it is one write.
struct SQLPlaceOrderStore: PlaceOrderStore {
    let commands: SQLProcessedCommands<PlaceOrderOutcome>

    func claim(
        _ commandID: CommandID, digest: CommandDigest?, at now: Date, leaseUntil: Date, cart cartID: CartID,
        chargeRequest: @escaping @Sendable (Cart, [SKU: Product]) -> ChargeRecord?
    ) async throws
        -> PlaceOrderClaim
    {
        let (claim, read) = try await commands.claim(
            commandID, digest: digest, at: now, leaseUntil: leaseUntil, readingCart: cartID, chargeRequest: chargeRequest)
        return PlaceOrderClaim(
            claim: claim, cart: read?.cart, products: read?.products, recordedCharge: read?.recordedCharge,
            earlierCharge: read?.earlierCharge)
    }
}
