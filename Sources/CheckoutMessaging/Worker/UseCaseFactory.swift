public import CheckoutDomain
public import Logging

/// Builds the use case that handles one command, reporting through that command's output.
///
/// The composition root decides what the use cases are made of (repositories, payment processor,
/// decorators); messaging only gives each one its output and a logger that names the command.
public struct UseCaseFactory: Sendable {
    public let syncCart: @Sendable (_ output: any SyncCartUseCaseOutput, _ logger: Logger) -> any SyncCart
    public let placeOrder: @Sendable (_ output: any PlaceOrderUseCaseOutput, _ logger: Logger) -> any PlaceOrder

    public init(
        syncCart: @escaping @Sendable (any SyncCartUseCaseOutput, Logger) -> any SyncCart,
        placeOrder: @escaping @Sendable (any PlaceOrderUseCaseOutput, Logger) -> any PlaceOrder
    ) {
        self.syncCart = syncCart
        self.placeOrder = placeOrder
    }
}
