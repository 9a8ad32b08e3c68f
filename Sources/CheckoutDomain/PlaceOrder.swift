/// Handles an `order.place` command; what ``PlaceOrderUseCase`` does and what decorators wrap.
public protocol PlaceOrder: Sendable {
    /// Reports the outcome through the output, or throws ``RetryableError`` when it should be retried.
    func execute(_ request: PlaceOrderRequest) async throws
}
