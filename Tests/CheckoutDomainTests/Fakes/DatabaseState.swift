import CheckoutDomain

/// The tables of ``InMemoryDatabase``.
struct DatabaseState: Sendable {
    var carts: [CartID: Cart] = [:]
    /// Nil until the test stocks the catalog, so a test that forgot to fails loudly.
    var products: [SKU: Product]?
    var orders: [Order] = []
    var syncCommands = CommandLog<SyncCartOutcome>()
    var placeCommands = CommandLog<PlaceOrderOutcome>()
    var charges: [CommandID: ChargeRecord] = [:]
    var failing: Set<DatabaseOperation> = []
}
