/// The answer to ``PlaceOrderStore/claim(_:digest:at:leaseUntil:cart:)``.
public struct PlaceOrderClaim: Sendable, Equatable {
    public let claim: CommandClaim<PlaceOrderOutcome>
    /// The stored cart when the command is ``CommandClaim/claimed``; nil when it was never synced, and
    /// whenever the command is not this worker's to handle.
    public let cart: Cart?

    public init(claim: CommandClaim<PlaceOrderOutcome>, cart: Cart?) {
        self.claim = claim
        self.cart = cart
    }
}
