import CheckoutDomain

/// ``CartRepository`` over ``InMemoryDatabase``.
struct InMemoryCarts: CartRepository {
    let database: InMemoryDatabase

    func cart(_ id: CartID) async throws -> Cart? {
        try await database.transaction { $0.carts[id] }
    }

    /// A checked-out cart is never replaced: a sync racing an order gets `versionConflict`, so the
    /// client reloads and learns the cart is checked out, instead of reviving it.
    func save(
        _ cart: Cart,
        replacing expectedVersion: Int,
        recording outcome: SyncCartOutcome,
        for commandID: CommandID
    ) async throws -> CartSaveResult {
        try await database.transaction { state in
            if let recorded = state.syncCartCommands.outcome(for: commandID) {
                return .commandAlreadyHandled(recorded)
            }
            let stored = state.carts[cart.id]
            let currentVersion = stored?.version ?? 0
            guard currentVersion == expectedVersion, stored?.isCheckedOut != true else {
                return .versionConflict(currentVersion: currentVersion)
            }
            state.carts[cart.id] = cart
            _ = state.syncCartCommands.record(outcome, for: commandID)
            return .saved
        }
    }
}
