import CheckoutDomain

/// ``CartRepository`` over ``InMemoryDatabase``.
struct InMemoryCarts: CartRepository {
    let database: InMemoryDatabase

    func cart(_ id: CartID) async throws -> Cart? {
        try await database.transaction(.loadCart) { $0.carts[id] }
    }

    func save(
        _ cart: Cart,
        replacing expectedVersion: Int,
        recording outcome: SyncCartOutcome,
        for commandID: CommandID
    ) async throws -> CartSaveResult {
        try await database.transaction(.saveCart) { state in
            if let recorded = state.syncCommands.outcome(for: commandID) {
                return .commandAlreadyHandled(recorded)
            }
            let currentVersion = state.carts[cart.id]?.version ?? 0
            guard currentVersion == expectedVersion else { return .versionConflict(currentVersion: currentVersion) }
            state.carts[cart.id] = cart
            _ = state.syncCommands.record(outcome, for: commandID)
            return .saved
        }
    }
}
