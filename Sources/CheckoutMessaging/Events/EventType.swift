/// The result events of contract v1; the raw value is both the routing key and the `type` property.
public enum EventType: String, Sendable, CaseIterable {
    case cartSynced = "cart.synced"
    case cartSyncRejected = "cart.sync-rejected"
    case orderPlaced = "order.placed"
    case orderRejected = "order.rejected"

    /// The event's `message_id`: the command's with the event type appended, so a republished result has
    /// the same id, and the one command can never produce two events under one id.
    func messageID(forCommand commandID: String) -> String {
        "\(commandID)/\(rawValue)"
    }
}
