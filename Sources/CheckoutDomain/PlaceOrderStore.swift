public import Foundation

/// What PlaceOrder reads to begin, shaped so that the claim, the cart and its products are one call:
/// on a shared database every round trip is paid by all the workers that share it.
public protocol PlaceOrderStore: Sendable {
    /// ``ProcessedCommands/claim(_:digest:at:leaseUntil:)`` of PlaceOrder's command and, in the same
    /// call, the cart `cartID` it orders and the catalog's products of its lines, read when the command
    /// is claimed.
    ///
    /// When both the cart and its products are read, `chargeRequest` is asked, with the cart and
    /// products the call returns, what to record of the command's charge (``ChargeLog/record(_:for:)``).
    /// What it answers is written in the claim's own write, and only if the claim is taken and no earlier
    /// attempt recorded a charge (that record is kept, and answered as ``PlaceOrderClaim/earlierCharge``):
    /// an order whose rules pass then costs no write of its own before the payment processor is called. An
    /// engine may ask before it knows whether the claim is taken, and again if it tries the claim
    /// again, so the request must have no effect of its own. A claim that comes without products has
    /// asked nothing and recorded nothing.
    func claim(
        _ commandID: CommandID, digest: CommandDigest?, at now: Date, leaseUntil: Date, cart cartID: CartID,
        chargeRequest: @escaping @Sendable (Cart, [SKU: Product]) -> ChargeRecord?
    ) async throws
        -> PlaceOrderClaim
}
