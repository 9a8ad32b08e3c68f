/// What ``CartRepository/save(_:replacing:recording:for:)`` did.
public enum CartSaveResult: Hashable, Sendable {
    /// The cart is stored and the outcome recorded.
    case saved
    /// Another sync got there first: nothing changed; the stored cart is at `currentVersion`.
    case versionConflict(currentVersion: Int)
    /// The command already has an outcome (a worker whose lease expired finished it): nothing changed.
    case commandAlreadyHandled(SyncCartOutcome)
}
