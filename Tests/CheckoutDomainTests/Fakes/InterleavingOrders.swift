import CheckoutDomain

/// ``InMemoryOrders`` that lets another worker act between the charge and the order's store,
/// to show how the use case handles losing a race after taking the money.
struct InterleavingOrders: OrderRepository {
    let database: InMemoryDatabase
    let beforePlace: @Sendable (inout DatabaseState) -> Void

    func place(
        _ order: Order,
        fromCartVersion cartVersion: Int,
        recording outcome: PlaceOrderOutcome,
        for commandID: CommandID
    ) async throws -> OrderPlacementResult {
        await database.update(beforePlace)
        return try await InMemoryOrders(database: database).place(order, fromCartVersion: cartVersion, recording: outcome, for: commandID)
    }
}
