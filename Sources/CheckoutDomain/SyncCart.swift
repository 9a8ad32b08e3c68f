/// Handles a `cart.sync` command; what ``SyncCartUseCase`` does and what decorators wrap.
public protocol SyncCart: Sendable {
    /// Reports the outcome through the output, or throws ``RetryableError`` when it should be retried.
    func execute(_ request: SyncCartRequest) async throws

    /// Gives up a command whose every attempt failed with a ``RetryableError``, the last being `error`:
    /// reports `unavailable`, or the outcome if the command was handled after all.
    func abandon(_ request: SyncCartRequest, after error: RetryableError) async throws
}
