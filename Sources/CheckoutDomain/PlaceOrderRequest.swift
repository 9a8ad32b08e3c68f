/// An `order.place` command as the messaging layer decoded it: JSON types only.
///
/// ``PlaceOrderUseCase`` checks the rules of form and answers `invalid-request` naming every violation.
public struct PlaceOrderRequest: Hashable, Sendable {
    /// The command's `message_id`, also the payment's idempotency key.
    public var commandID: String
    public var cartID: String
    public var customerID: String
    public var cartVersion: Int
    /// The total the client showed the customer, in minor units of `currency`.
    public var expectedTotal: Int64
    public var currency: String
    public var paymentToken: String
    /// Whether an earlier attempt at this command may have reached the payment processor (the
    /// message was redelivered or retried): a rejection before payment then refunds whatever
    /// that attempt charged.
    public var isRepeatAttempt: Bool

    public init(
        commandID: String,
        cartID: String,
        customerID: String,
        cartVersion: Int,
        expectedTotal: Int64,
        currency: String,
        paymentToken: String,
        isRepeatAttempt: Bool = false
    ) {
        self.commandID = commandID
        self.cartID = cartID
        self.customerID = customerID
        self.cartVersion = cartVersion
        self.expectedTotal = expectedTotal
        self.currency = currency
        self.paymentToken = paymentToken
        self.isRepeatAttempt = isRepeatAttempt
    }
}
