/// Handles a `cart.sync` command; what ``SyncCartUseCase`` does and what decorators wrap.
public protocol SyncCart: Sendable {
    /// Reports the outcome through the output, or throws ``RetryableError`` when it should be retried.
    func execute(_ request: SyncCartRequest) async throws
}
