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
        func syncs(_ dimensions: [(String, String)]) -> Counter {
            Counter(label: "checkout_cart_syncs_total", dimensions: dimensions, factory: factory)
        }
        synced = syncs([("result", "synced")])
        rejected = Dictionary(
            uniqueKeysWithValues: SyncCartRejectionReason.allCases.map { ($0, syncs([("result", "rejected"), ("reason", $0.rawValue)])) })
        adjusted = Dictionary(
            uniqueKeysWithValues: AdjustmentReason.allCases.map {
                ($0, Counter(label: "checkout_cart_adjustments_total", dimensions: [("reason", $0.rawValue)], factory: factory))
            })
    }
}
