public import CheckoutDomain

/// Reports a `cart.sync` outcome by publishing its event; returns once the broker confirmed it.
public struct SyncCartEventOutput: SyncCartUseCaseOutput {
    private let publisher: EventPublisher
    private let command: CommandEnvelope

    public init(publisher: EventPublisher, command: CommandEnvelope) {
        self.publisher = publisher
        self.command = command
    }

    public func didSync(_ cart: SyncedCart) async throws {
        try await publisher.publish(CartSyncedEvent(cart), as: .cartSynced, for: command)
    }

    public func didReject(_ rejection: SyncCartRejection) async throws {
        try await publisher.publish(CartSyncRejectedEvent(rejection), as: .cartSyncRejected, for: command)
    }
}
