import CheckoutDomain

/// ``OrderRepository`` over ``InMemoryDatabase``, with the guards a real transaction has.
struct InMemoryOrders: OrderRepository {
    let database: InMemoryDatabase

    func place(
        _ order: Order,
        fromCartVersion cartVersion: Int,
        recording outcome: PlaceOrderOutcome,
        for commandID: CommandID
    ) async throws -> OrderPlacementResult {
        try await database.transaction(.placeOrder) { state in
            if let recorded = state.placeCommands.outcome(for: commandID) {
                return .commandAlreadyHandled(recorded)
            }
            guard let cart = state.carts[order.cartID], cart.version == cartVersion, !cart.isCheckedOut else {
                return .cartChanged
            }
            var products = state.products ?? [:]
            let short = order.lines.filter { (products[$0.sku]?.stock ?? 0) < $0.quantity }.map(\.sku)
            guard short.isEmpty else { return .outOfStock(short) }
            for line in order.lines {
                if let product = products[line.sku] {
                    products[line.sku] = Product(
                        sku: product.sku,
                        name: product.name,
                        price: product.price,
                        stock: product.stock - line.quantity,
                        isActive: product.isActive
                    )
                }
            }
            state.products = products
            state.carts[cart.id] = try Cart(
                id: cart.id,
                customerID: cart.customerID,
                version: cart.version,
                currency: cart.currency,
                lines: cart.lines,
                isCheckedOut: true,
                syncedAt: cart.syncedAt
            )
            state.orders.append(order)
            _ = state.placeCommands.record(outcome, for: commandID)
            return .placed
        }
    }
}
