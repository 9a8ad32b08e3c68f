import Crypto

/// The result events of contract v1; the raw value is both the routing key and the `type` property.
public enum EventType: String, Sendable, CaseIterable {
    case cartSynced = "cart.synced"
    case cartSyncRejected = "cart.sync-rejected"
    case orderPlaced = "order.placed"
    case orderRejected = "order.rejected"

    /// The event's `message_id`: the command's with the event type appended, so a republished result has
    /// the same id, and the one command can never produce two events under one id.
    ///
    /// A command id too long for that to fit AMQP's 255 bytes (only one over the 200 a command id may
    /// have, answered `invalid-request`) stands as `sha256:` and its SHA-256 in hex: its answer could
    /// not be published otherwise, and the client would wait through every retry for nothing.
    func messageID(forCommand commandID: String) -> String {
        let messageID = "\(commandID)/\(rawValue)"
        guard messageID.utf8.count > 255 else { return messageID }
        return "sha256:\(SHA256.hash(data: Array(commandID.utf8)).lowercaseHex)/\(rawValue)"
    }
}
