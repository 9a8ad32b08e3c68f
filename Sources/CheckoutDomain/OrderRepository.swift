/// Where orders are stored, together with the stock and cart changes an order makes.
public protocol OrderRepository: Sendable {
    /// In one transaction, all or nothing: stores `order` and its lines; lowers each line's stock
    /// by its quantity, never below zero; marks the cart checked out if it is still at `cartVersion`
    /// and not checked out; records `outcome` for `commandID` in ``ProcessedCommands`` if it has none.
    ///
    /// One unit, because the payment was already taken: a partial order, or an order whose
    /// outcome is lost, would be refunded or charged wrongly on redelivery.
    func place(
        _ order: Order,
        fromCartVersion cartVersion: Int,
        recording outcome: PlaceOrderOutcome,
        for commandID: CommandID
    ) async throws -> OrderPlacementResult
}
