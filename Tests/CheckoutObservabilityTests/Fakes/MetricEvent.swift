/// One value a handler of ``TestMetricsFactory`` received.
struct MetricEvent: Hashable, Sendable {
    enum Kind: Hashable, Sendable {
        case counter
        case recorder
        case timer
    }

    let kind: Kind
    let label: String
    /// `name=value`, in the order given.
    let dimensions: [String]
    let value: Int64
}
