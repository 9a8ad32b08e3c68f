import CheckoutDomain

/// One call of ``SQLOrders/place(_:fromCartVersion:recording:for:)``, as a batch carries it.
struct SQLOrderPlacement: Sendable {
    let order: Order
    let cartVersion: Int
    let outcome: PlaceOrderOutcome
    let commandID: CommandID

    /// The quantity each SKU of the order takes from stock, in SKU order.
    var wantedStock: [(key: SKU, value: Int)] {
        Dictionary(order.lines.map { ($0.sku, $0.quantity) }, uniquingKeysWith: +).sorted { $0.key < $1.key }
    }
}
