/// The answer to ``PlaceOrderStore/claim(_:digest:at:leaseUntil:cart:chargeRequest:)``.
public struct PlaceOrderClaim: Sendable, Equatable {
    public let claim: CommandClaim<PlaceOrderOutcome>
    /// The stored cart when the command is ``CommandClaim/claimed``; nil when it was never synced, and
    /// whenever the command is not this worker's to handle.
    public let cart: Cart?
    /// Those of the cart's SKUs the catalog knows, when the store read them with the cart; nil when it
    /// did not (a cart written before the store could), and the use case reads them from the catalog.
    public let products: [SKU: Product]?
    /// What the store recorded of the command's charge with the claim, as the claim's `chargeRequest`
    /// answered; nil when it recorded nothing, as when it kept ``earlierCharge``.
    public let recordedCharge: ChargeRecord?
    /// What an earlier attempt recorded of the command's charge, kept by the claim instead of what its
    /// `chargeRequest` answered: an approval stays known to every later attempt.
    public let earlierCharge: ChargeRecord?

    public init(
        claim: CommandClaim<PlaceOrderOutcome>, cart: Cart?, products: [SKU: Product]? = nil, recordedCharge: ChargeRecord? = nil,
        earlierCharge: ChargeRecord? = nil
    ) {
        self.claim = claim
        self.cart = cart
        self.products = products
        self.recordedCharge = recordedCharge
        self.earlierCharge = earlierCharge
    }
}
