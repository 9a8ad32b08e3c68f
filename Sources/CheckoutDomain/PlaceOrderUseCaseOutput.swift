/// Where ``PlaceOrderUseCase`` reports outcomes: the messaging layer publishes them as events.
///
/// An output serves one delivery: the use case is a cheap value, so the messaging layer builds one
/// per command with an output that knows the message's ids. A replay reports the stored outcome
/// again with the same data. An error thrown here is passed on from `execute`; the outcome is
/// already recorded, so the redelivery reports it again.
public protocol PlaceOrderUseCaseOutput: Sendable {
    /// The order was stored and paid: publish `order.placed`.
    func didPlace(_ order: Order) async throws
    /// The order was rejected, and nothing is left charged: publish `order.rejected`.
    func didReject(_ rejection: PlaceOrderRejection) async throws
}
