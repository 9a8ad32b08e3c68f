import CheckoutDomain

/// The tables of ``InMemoryDatabase``.
struct InMemoryState: Sendable {
    var carts: [CartID: Cart] = [:]
    var products: [SKU: Product] = [:]
    var orders: [OrderID: Order] = [:]
    var syncCartCommands = CommandLog<SyncCartOutcome>()
    var placeOrderCommands = CommandLog<PlaceOrderOutcome>()
    var charges: [CommandID: ChargeRecord] = [:]
}
