import CheckoutDomain
public import Metrics

/// The metrics of `cart.sync`, made once for the process and shared by the decorators of every command
/// (``InstrumentedSyncCart``, ``InstrumentedSyncCartOutput``), so that no command looks one up in the
/// factory. Every outcome's series exists from the start, at zero, so a rate over it is defined
/// before its first occurrence.
public struct SyncCartMetrics: Sendable {
    let command: CommandMetrics
    let synced: Counter
    let rejected: [SyncCartRejectionReason: Counter]
    let adjusted: [AdjustmentReason: Counter]

    public init(factory: any MetricsFactory) {
        command = CommandMetrics(command: "cart.sync", factory: factory)
        synced = Counter(label: "checkout_cart_syncs_total", dimensions: [("result", "synced")], factory: factory)
        rejected = .init(label: "checkout_cart_syncs_total", dimensions: [("result", "rejected")], factory: factory)
        adjusted = .init(label: "checkout_cart_adjustments_total", factory: factory)
    }
}
