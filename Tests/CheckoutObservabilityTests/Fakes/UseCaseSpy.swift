import CheckoutDomain

/// Stands in for both use cases: records the requests it gets and throws what the test says.
actor UseCaseSpy: SyncCart, PlaceOrder {
    enum Message: Equatable {
        case syncCart(SyncCartRequest)
        case placeOrder(PlaceOrderRequest)
        case abandonSyncCart(SyncCartRequest, code: RetryableError.Code)
        case abandonPlaceOrder(PlaceOrderRequest, code: RetryableError.Code)
    }

    private(set) var messages: [Message] = []
    private var error: (any Error)?

    init(throwing error: (any Error)? = nil) {
        self.error = error
    }

    func execute(_ request: SyncCartRequest) async throws {
        messages.append(.syncCart(request))
        if let error { throw error }
    }

    func execute(_ request: PlaceOrderRequest) async throws {
        messages.append(.placeOrder(request))
        if let error { throw error }
    }

    func abandon(_ request: SyncCartRequest, after error: RetryableError) async throws {
        messages.append(.abandonSyncCart(request, code: error.code))
        if let error = self.error { throw error }
    }

    func abandon(_ request: PlaceOrderRequest, after error: RetryableError) async throws {
        messages.append(.abandonPlaceOrder(request, code: error.code))
        if let error = self.error { throw error }
    }
}
