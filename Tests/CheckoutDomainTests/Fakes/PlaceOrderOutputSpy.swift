import CheckoutDomain

/// Records what ``PlaceOrderUseCase`` reported; can fail like a broker that went away.
actor PlaceOrderOutputSpy: PlaceOrderUseCaseOutput {
    enum Message: Equatable {
        case didPlace(Order)
        case didReject(PlaceOrderRejection)
    }

    private(set) var messages: [Message] = []
    private var failing = false

    func failPublishing(_ failing: Bool) {
        self.failing = failing
    }

    func didPlace(_ order: Order) async throws {
        try publish(.didPlace(order))
    }

    func didReject(_ rejection: PlaceOrderRejection) async throws {
        try publish(.didReject(rejection))
    }

    private func publish(_ message: Message) throws {
        guard !failing else { throw ConnectionLost() }
        messages.append(message)
    }
}
