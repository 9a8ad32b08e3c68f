import CheckoutDomain
public import Metrics

/// The metrics of `order.place`, made once for the process and shared by the decorators of every
/// command (``InstrumentedPlaceOrder``, ``InstrumentedPlaceOrderOutput``), so that no command looks
/// one up in the factory. Every outcome's series exists from the start, at zero.
public struct PlaceOrderMetrics: Sendable {
    let command: CommandMetrics
    let placed: Counter
    let rejected: [PlaceOrderRejectionReason: Counter]

    public init(factory: any MetricsFactory) {
        command = CommandMetrics(command: "order.place", factory: factory)
        placed = Counter(label: "checkout_orders_total", dimensions: [("result", "placed")], factory: factory)
        rejected = .init(label: "checkout_orders_total", dimensions: [("result", "rejected")], factory: factory)
    }
}
