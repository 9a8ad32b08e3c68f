/// A `cart.sync` command as the messaging layer decoded it: JSON types only.
///
/// The rules of form (identifiers, currency code, line and quantity limits) are the domain's,
/// so ``SyncCartUseCase`` checks them and answers `invalid-request` naming every violation.
public struct SyncCartRequest: Hashable, Sendable {
    /// The command's `message_id`.
    public var commandID: String
    public var cartID: String
    public var customerID: String
    public var baseVersion: Int
    public var currency: String
    public var items: [RequestedItem]
    /// What the command was sent as; nil when unknown (then it matches any command with the same id).
    public var digest: CommandDigest?

    public init(
        commandID: String,
        cartID: String,
        customerID: String,
        baseVersion: Int,
        currency: String,
        items: [RequestedItem],
        digest: CommandDigest? = nil
    ) {
        self.commandID = commandID
        self.cartID = cartID
        self.customerID = customerID
        self.baseVersion = baseVersion
        self.currency = currency
        self.items = items
        self.digest = digest
    }
}
