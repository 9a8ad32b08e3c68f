import CheckoutDomain

/// Stands in for the messaging layer's outputs: records what it is told, or fails like a broker that went away.
actor OutputSpy: SyncCartUseCaseOutput, PlaceOrderUseCaseOutput {
    enum Message: Equatable {
        case didSync(SyncedCart)
        case didRejectSync(SyncCartRejection)
        case didPlace(Order)
        case didRejectOrder(PlaceOrderRejection)
    }

    struct PublishFailed: Error {}

    private(set) var messages: [Message] = []
    private let failing: Bool

    init(failing: Bool = false) {
        self.failing = failing
    }

    func didSync(_ cart: SyncedCart) async throws { try publish(.didSync(cart)) }
    func didReject(_ rejection: SyncCartRejection) async throws { try publish(.didRejectSync(rejection)) }
    func didPlace(_ order: Order) async throws { try publish(.didPlace(order)) }
    func didReject(_ rejection: PlaceOrderRejection) async throws { try publish(.didRejectOrder(rejection)) }

    private func publish(_ message: Message) throws {
        guard !failing else { throw PublishFailed() }
        messages.append(message)
    }
}
