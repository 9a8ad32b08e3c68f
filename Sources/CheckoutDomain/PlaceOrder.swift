/// Handles an `order.place` command; what ``PlaceOrderUseCase`` does and what decorators wrap.
public protocol PlaceOrder: Sendable {
    /// Reports the outcome through the output, or throws ``RetryableError`` when it should be retried.
    func execute(_ request: PlaceOrderRequest) async throws

    /// Gives up a command whose every attempt failed with a ``RetryableError``, the last being `error`:
    /// reports `unavailable` or `payment-unavailable`, or the outcome if the command was handled after all.
    func abandon(_ request: PlaceOrderRequest, after error: RetryableError) async throws
}
