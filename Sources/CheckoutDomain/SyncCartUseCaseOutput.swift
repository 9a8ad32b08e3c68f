/// Where ``SyncCartUseCase`` reports outcomes: the messaging layer publishes them as events.
///
/// An output serves one delivery: the use case is a cheap value, so the messaging layer builds one
/// per command with an output that knows the message's ids. A replay reports the stored outcome
/// again with the same data. An error thrown here is passed on from `execute`; the outcome is
/// already recorded, so the redelivery reports it again.
public protocol SyncCartUseCaseOutput: Sendable {
    /// The sync was accepted: publish `cart.synced`.
    func didSync(_ cart: SyncedCart) async throws
    /// The sync was rejected: publish `cart.sync-rejected`.
    func didReject(_ rejection: SyncCartRejection) async throws
}
