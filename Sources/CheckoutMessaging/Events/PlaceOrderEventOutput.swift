public import CheckoutDomain

/// Reports an `order.place` outcome by publishing its event; returns once the broker confirmed it.
public struct PlaceOrderEventOutput: PlaceOrderUseCaseOutput {
    private let publisher: EventPublisher
    private let command: CommandEnvelope

    public init(publisher: EventPublisher, command: CommandEnvelope) {
        self.publisher = publisher
        self.command = command
    }

    public func didPlace(_ order: Order) async throws {
        try await publisher.publish(OrderPlacedEvent(order), as: .orderPlaced, for: command)
    }

    public func didReject(_ rejection: PlaceOrderRejection) async throws {
        try await publisher.publish(OrderRejectedEvent(rejection), as: .orderRejected, for: command)
    }
}
