public import Foundation

/// What PlaceOrder reads to begin, shaped so that the claim, the cart and its products are one call:
/// on a shared database every round trip is paid by all the workers that share it.
public protocol PlaceOrderStore: Sendable {
    /// ``ProcessedCommands/claim(_:digest:at:leaseUntil:)`` of PlaceOrder's command and, in the same
    /// call, the cart `cartID` it orders and the catalog's products of its lines, read when the command
    /// is claimed.
    func claim(
        _ commandID: CommandID, digest: CommandDigest?, at now: Date, leaseUntil: Date, cart cartID: CartID
    ) async throws
        -> PlaceOrderClaim
}
