public import CheckoutDomain

/// Records what ``PlaceOrderUseCase`` reported; can fail like a broker that went away.
public actor PlaceOrderOutputSpy: PlaceOrderUseCaseOutput {
    public enum Message: Equatable, Sendable {
        case didPlace(Order)
        case didReject(PlaceOrderRejection)
    }

    public private(set) var messages: [Message] = []
    private var failing = false

    public init() {}

    /// The reasons of the rejections reported, in order.
    public var rejectionReasons: [PlaceOrderRejectionReason] {
        messages.compactMap { if case .didReject(let rejection) = $0 { rejection.reason } else { nil } }
    }

    /// The orders reported placed, in order.
    public var placedOrders: [Order] {
        messages.compactMap { if case .didPlace(let order) = $0 { order } else { nil } }
    }

    public func failPublishing(_ failing: Bool) {
        self.failing = failing
    }

    public func didPlace(_ order: Order) async throws {
        try publish(.didPlace(order))
    }

    public func didReject(_ rejection: PlaceOrderRejection) async throws {
        try publish(.didReject(rejection))
    }

    private func publish(_ message: Message) throws {
        guard !failing else { throw ConnectionLost() }
        messages.append(message)
    }
}
