/// A rejected `cart.sync`: the body of `cart.sync-rejected`.
public struct SyncCartRejection: Hashable, Codable, Sendable {
    /// The `cartId` as the client sent it; it may break the identifier rule when the reason is `invalid-request`.
    public let cartID: String
    public let reason: SyncCartRejectionReason
    /// For people: what was wrong, naming every violation of form.
    public let message: String
    /// The stored cart's version, given with `version-conflict` so the client can sync again from it.
    public let currentVersion: Int?

    public init(cartID: String, reason: SyncCartRejectionReason, message: String, currentVersion: Int? = nil) {
        self.cartID = cartID
        self.reason = reason
        self.message = message
        self.currentVersion = currentVersion
    }

    /// The answer to a command that re-uses the `message_id` of another: nothing of that one's outcome.
    public static func duplicateMessageID(of request: SyncCartRequest) -> SyncCartRejection {
        SyncCartRejection(
            cartID: request.cartID, reason: .duplicateMessageID,
            message: "message_id \(request.commandID) was already used by another command; nothing was done")
    }

    /// The rejection the messaging layer reports once `error` outlasted every retry.
    public static func unavailable(cartID: String, after error: RetryableError) -> SyncCartRejection {
        SyncCartRejection(cartID: cartID, reason: .unavailable, message: "the sync could not be completed: \(error)")
    }
}
