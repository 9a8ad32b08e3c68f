import ArgumentParser

/// The two use cases the end-to-end benchmark drives, as a client sends them.
enum BenchCommand: String, CaseIterable, Sendable {
    case syncCart = "sync-cart"
    case placeOrder = "place-order"

    var title: String {
        switch self {
        case .syncCart: "SyncCart"
        case .placeOrder: "PlaceOrder"
        }
    }

    var routingKey: String {
        switch self {
        case .syncCart: "cart.sync"
        case .placeOrder: "order.place"
        }
    }

    /// The event that answers a command the use case accepted; anything else stops the benchmark.
    var acceptedEvent: String {
        switch self {
        case .syncCart: "cart.synced"
        case .placeOrder: "order.placed"
        }
    }
}
