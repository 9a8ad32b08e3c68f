/// The names, limits and retry policy of the worker's messaging, with the contract's defaults.
public struct MessagingConfiguration: Sendable {
    public var commandsExchange = "checkout.commands"
    public var eventsExchange = "checkout.events"
    /// The exchange and the queue of dead letters share this name.
    public var deadLetter = "checkout.dead-letter"
    public var syncCartQueue = "checkout.sync-cart"
    public var placeOrderQueue = "checkout.place-order"
    /// Retry queues are named `<prefix>.<command>.<delay>`, e.g. `checkout.retry.sync-cart.5s`.
    public var retryQueuePrefix = "checkout.retry"
    public var queueType = QueueType.classic
    public var retryDelays = RetryDelays.default
    /// Unacknowledged deliveries per consumer (`CHECKOUT_PREFETCH`).
    public var prefetch: UInt16 = 50
    /// Commands handled at once by this process (`CHECKOUT_CONCURRENCY`).
    public var concurrency: Int
    /// Bodies over this size are dead-lettered unread.
    public var maximumBodyBytes = 256 * 1024

    public init(concurrency: Int) {
        self.concurrency = concurrency
    }

    /// The queue `kind`'s commands are consumed from.
    public func queue(for kind: CommandKind) -> String {
        switch kind {
        case .syncCart: syncCartQueue
        case .placeOrder: placeOrderQueue
        }
    }

    /// Whether `queue` is a command, retry or dead-letter queue of this worker's topology.
    public func isOwnQueue(_ queue: String) -> Bool {
        queue == deadLetter || CommandKind.allCases.contains { queue == self.queue(for: $0) } || queue.hasPrefix("\(retryQueuePrefix).")
    }

    /// The queue a command of `kind` waits in before its retry number `retry` (0 for the first).
    public func retryQueue(for kind: CommandKind, retry: Int) -> String {
        "\(retryQueuePrefix).\(kind.shortName).\(retryDelays.delays[retry].name)"
    }
}
