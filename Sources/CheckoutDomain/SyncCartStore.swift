/// What SyncCart reads and writes, shaped so that a sync is one read and one write: on a shared
/// database every round trip is paid by all the workers that share it.
///
/// There is no claim: two deliveries of one command may both get as far as recording, whose unique
/// key on the command id lets the first win; the other reports the winner's outcome. A sync has no
/// effect outside the database, so running it twice costs nothing but the work.
public protocol SyncCartStore: Sendable {
    /// In one read: the command's recorded outcome, the cart, whether the catalog prices anything in
    /// `currency`, and those of `skus` the catalog knows.
    func snapshot(for commandID: CommandID, cart cartID: CartID, currency: CurrencyCode, skus: Set<SKU>) async throws -> SyncCartSnapshot

    /// In one unit: records `outcome` for `commandID` with `digest`, unless an outcome is recorded
    /// already or the id is a command's of another type; for a `.synced` outcome, also stores its cart
    /// if the stored one is at the version before it (none, for version 1) and not checked out, and
    /// otherwise records nothing.
    ///
    /// One unit, because a crash between the two would make the redelivered command find its own
    /// cart and report a false `version-conflict`. A checked-out cart is never replaced: a sync racing
    /// an order gets `versionConflict`, and the client reloads and learns the cart is checked out.
    func record(_ outcome: SyncCartOutcome, digest: CommandDigest?, for commandID: CommandID) async throws -> SyncCartRecordResult

    /// The ``snapshot(for:cart:currency:skus:)``, and unless it has the command's outcome, the
    /// ``record(_:digest:for:)`` of what `decide` makes of it.
    ///
    /// A store that can run both as one unit, which no other write comes between, does: then no sync
    /// loses a race after deciding. One whose every statement is a round trip to a shared database may
    /// read and then record holding nothing between: a write that comes between is met by recording,
    /// as `alreadyRecorded` or `versionConflict`.
    func sync(
        for commandID: CommandID, cart cartID: CartID, currency: CurrencyCode, skus: Set<SKU>, digest: CommandDigest?,
        decide: @escaping @Sendable (SyncCartSnapshot) -> SyncCartOutcome
    ) async throws -> SyncCartRecordResult
}
