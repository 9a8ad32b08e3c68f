/// A rejected `order.place`: the body of `order.rejected`, plus the refund an `order-failed` owes.
public struct PlaceOrderRejection: Hashable, Codable, Sendable {
    /// The `cartId` as the client sent it; it may break the identifier rule when the reason is `invalid-request`.
    public let cartID: String
    public let reason: PlaceOrderRejectionReason
    /// For people: what was wrong, naming every violation of form.
    public let message: String
    /// The re-priced total, given with `price-changed`.
    public let newTotal: Money?
    /// The lines that cannot be sold, given with `out-of-stock`.
    public let skus: [SKU]?
    /// The processor's code, given with `payment-declined`.
    public let declineCode: DeclineCode?
    /// The charge an `order-failed` gave back. Reporting this rejection, first or as a replay,
    /// refunds it again (refunds are idempotent), so a refund lost to a crash is made on redelivery.
    public let refundedPayment: Payment?

    /// Whether reporting this rejection first gives back whatever an earlier attempt of the command
    /// charged under its idempotency key (see ``PaymentProcessor/findCharge(madeWith:)``): when no
    /// refund of its own is owed and the reason may follow such a charge.
    public var refundsEarlierCharge: Bool {
        refundedPayment == nil && reason.mayFollowAChargeOfTheSameCommand
    }

    public init(
        cartID: String,
        reason: PlaceOrderRejectionReason,
        message: String,
        newTotal: Money? = nil,
        skus: [SKU]? = nil,
        declineCode: DeclineCode? = nil,
        refundedPayment: Payment? = nil
    ) {
        self.cartID = cartID
        self.reason = reason
        self.message = message
        self.newTotal = newTotal
        self.skus = skus
        self.declineCode = declineCode
        self.refundedPayment = refundedPayment
    }

    /// The answer to a command that re-uses the `message_id` of another: nothing of that one's outcome.
    public static func duplicateMessageID(of request: PlaceOrderRequest) -> PlaceOrderRejection {
        PlaceOrderRejection(
            cartID: request.cartID, reason: .duplicateMessageID,
            message: "message_id \(request.commandID) was already used by another command; nothing was done")
    }

    /// The rejection of a command abandoned once `error` outlasted every retry: `payment-unavailable`
    /// when the payment processor failed, `unavailable` otherwise; it refunds what an attempt may have charged.
    public static func unavailable(cartID: String, after error: RetryableError) -> PlaceOrderRejection {
        let reason: PlaceOrderRejectionReason =
            [.paymentProcessorUnavailable, .paymentSearchLagging].contains(error.code) ? .paymentUnavailable : .unavailable
        return PlaceOrderRejection(
            cartID: cartID,
            reason: reason,
            message: "the order could not be placed: \(error)"
        )
    }
}
