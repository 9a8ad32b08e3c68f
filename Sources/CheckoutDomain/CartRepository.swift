/// Where carts live, with optimistic versioning.
public protocol CartRepository: Sendable {
    /// The stored cart, or nil if it was never synced.
    func cart(_ id: CartID) async throws -> Cart?

    /// In one transaction: stores `cart` if the stored cart is at `expectedVersion` (0: there is none)
    /// and records `outcome` for `commandID` in ``ProcessedCommands``, if it has no outcome yet.
    ///
    /// One unit, because a crash between the two would make the redelivered command
    /// find its own cart and report a false `version-conflict`.
    func save(
        _ cart: Cart,
        replacing expectedVersion: Int,
        recording outcome: SyncCartOutcome,
        for commandID: CommandID
    ) async throws -> CartSaveResult
}
