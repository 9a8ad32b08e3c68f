import CheckoutDomain

/// Records what a ``PlaceOrderUseCase`` reported.
actor PlaceOrderOutputSpy: PlaceOrderUseCaseOutput {
    enum Message: Equatable {
        case placed(OrderID)
        case rejected(PlaceOrderRejectionReason)
    }

    private(set) var messages: [Message] = []

    func didPlace(_ order: Order) {
        messages.append(.placed(order.id))
    }

    func didReject(_ rejection: PlaceOrderRejection) {
        messages.append(.rejected(rejection.reason))
    }
}
