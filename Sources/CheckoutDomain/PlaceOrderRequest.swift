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
    /// What the command was sent as; nil when unknown (then it matches any command with the same id).
    public var digest: CommandDigest?

    public init(
        commandID: String,
        cartID: String,
        customerID: String,
        cartVersion: Int,
        expectedTotal: Int64,
        currency: String,
        paymentToken: String,
        digest: CommandDigest? = nil
    ) {
        self.commandID = commandID
        self.cartID = cartID
        self.customerID = customerID
        self.cartVersion = cartVersion
        self.expectedTotal = expectedTotal
        self.currency = currency
        self.paymentToken = paymentToken
        self.digest = digest
    }
}
