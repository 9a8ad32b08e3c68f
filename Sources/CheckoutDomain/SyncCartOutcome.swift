/// What a handled `cart.sync` came to, stored under its command id so a repeat reports it again.
///
/// Codable so repositories can keep it as JSON; the case labels are part of that format.
public enum SyncCartOutcome: Hashable, Codable, Sendable {
    case synced(cart: SyncedCart)
    case rejected(rejection: SyncCartRejection)
}
