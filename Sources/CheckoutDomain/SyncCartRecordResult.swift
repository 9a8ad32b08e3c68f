/// What ``SyncCartStore/record(_:digest:for:)`` or ``SyncCartStore/sync(for:cart:currency:skus:digest:decide:)`` did.
public enum SyncCartRecordResult: Equatable, Sendable {
    /// The outcome is recorded (the one given, or the one the decision made), and a synced cart stored with it.
    case recorded(SyncCartOutcome)
    /// Another sync or an order got to the cart first: nothing changed; the stored cart is at `currentVersion`.
    case versionConflict(currentVersion: Int)
    /// The command already has an outcome (a concurrent delivery of it, or a command re-using its id,
    /// recorded first): nothing changed.
    case alreadyRecorded(RecordedOutcome<SyncCartOutcome>)
    /// The id is a command's of another type (an order's): ids are one space, so this is another
    /// command re-using it. Nothing changed.
    case usedByAnotherCommand
}
