/// Why a `cart.sync` was rejected; the raw values are the contract's `reason` strings.
public enum SyncCartRejectionReason: String, Hashable, Codable, Sendable, CaseIterable {
    /// A rule of form is broken, or the catalog prices nothing in the requested currency.
    case invalidRequest = "invalid-request"
    /// `baseVersion` is not the stored cart's version.
    case versionConflict = "version-conflict"
    /// The cart belongs to another customer.
    case forbidden
    /// An order was placed from the cart.
    case cartCheckedOut = "cart-checked-out"
    /// The `message_id` was used by another command (another body); nothing was done.
    case duplicateMessageID = "duplicate-message-id"
    /// A dependency kept failing until retries ran out; see ``SyncCartRejection/unavailable(cartID:after:)``.
    case unavailable
}
