import CheckoutDomain
import Foundation

/// ``PlaceOrderStore`` over `processed_commands`, `carts` and `products`: on PostgreSQL the claim, the
/// cart and its products are one statement; SQLite reads the cart after the claim, on the same
/// connection, and leaves the products to the catalog.
struct SQLPlaceOrderStore: PlaceOrderStore {
    let commands: SQLProcessedCommands<PlaceOrderOutcome>

    func claim(
        _ commandID: CommandID, digest: CommandDigest?, at now: Date, leaseUntil: Date, cart cartID: CartID
    ) async throws
        -> PlaceOrderClaim
    {
        let (claim, read) = try await commands.claim(commandID, digest: digest, at: now, leaseUntil: leaseUntil, readingCart: cartID)
        return PlaceOrderClaim(claim: claim, cart: read?.cart, products: read?.products)
    }
}
