/// The two commands of contract v1, and the names that go with each.
public enum CommandKind: String, Sendable, CaseIterable {
    case syncCart = "cart.sync"
    case placeOrder = "order.place"

    /// The routing key clients publish the command with.
    public var routingKey: String { rawValue }

    /// The short name used for retry queues and metric labels: `sync-cart`, `place-order`.
    var shortName: String {
        switch self {
        case .syncCart: "sync-cart"
        case .placeOrder: "place-order"
        }
    }
}
