import CheckoutDomain

/// ``OrderRepository`` over ``InMemoryDatabase``, all or nothing like the SQL transaction.
struct InMemoryOrders: OrderRepository {
    let database: InMemoryDatabase

    func place(
        _ order: Order,
        fromCartVersion cartVersion: Int,
        recording outcome: PlaceOrderOutcome,
        for commandID: CommandID
    ) async throws -> OrderPlacementResult {
        try await database.transaction { state in
            if let recorded = state.placeOrderCommands.outcome(for: commandID) {
                return .commandAlreadyHandled(recorded)
            }
            guard let cart = state.carts[order.cartID], cart.version == cartVersion, !cart.isCheckedOut else {
                return .cartChanged
            }
            let short = order.lines.filter { (state.products[$0.sku]?.stock ?? 0) < $0.quantity }.map(\.sku)
            guard short.isEmpty else { return .outOfStock(short) }
            guard state.orders[order.id] == nil else {
                throw PersistenceError(code: .duplicateOrder, context: "placing order \(order.id)")
            }
            let checkedOut = try cart.checkedOut()
            for line in order.lines {
                state.takeStock(line.quantity, of: line.sku)
            }
            state.carts[cart.id] = checkedOut
            state.orders[order.id] = order
            _ = state.placeOrderCommands.record(outcome, for: commandID)
            return .placed
        }
    }
}
