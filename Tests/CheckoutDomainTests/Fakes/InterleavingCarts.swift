import CheckoutDomain

/// ``InMemoryCarts`` that lets another worker act between the use case's reads and its save,
/// to show how the use case handles losing a race.
struct InterleavingCarts: CartRepository {
    let database: InMemoryDatabase
    let beforeSave: @Sendable (inout DatabaseState) -> Void

    func cart(_ id: CartID) async throws -> Cart? {
        try await InMemoryCarts(database: database).cart(id)
    }

    func save(
        _ cart: Cart,
        replacing expectedVersion: Int,
        recording outcome: SyncCartOutcome,
        for commandID: CommandID
    ) async throws -> CartSaveResult {
        await database.update(beforeSave)
        return try await InMemoryCarts(database: database).save(cart, replacing: expectedVersion, recording: outcome, for: commandID)
    }
}
