public import CheckoutDomain
public import Logging

/// Logs and measures every `order.place` around a ``PlaceOrder``, so the use case itself knows
/// nothing of logging or metrics.
///
/// Records `checkout_command_duration_seconds{command="order.place", result="handled|retryable|failed"}`
/// and `checkout_command_retries_total{command, code}`, and `checkout_commands_abandoned_total{command, code}`
/// for commands given up after their last retry; logs a warning for a retryable error and
/// an error for any other, then rethrows it unchanged. The payment token is never logged.
public struct InstrumentedPlaceOrder: PlaceOrder {
    private let decoratee: any PlaceOrder
    private let instrumentation: CommandInstrumentation

    public init(_ decoratee: any PlaceOrder, logger: Logger, metrics: PlaceOrderMetrics) {
        self.decoratee = decoratee
        instrumentation = CommandInstrumentation(logger: logger, metrics: metrics.command)
    }

    public func execute(_ request: PlaceOrderRequest) async throws {
        try await instrumentation.run(commandID: request.commandID, cartID: request.cartID) {
            try await decoratee.execute(request)
        }
    }

    public func abandon(_ request: PlaceOrderRequest, after error: RetryableError) async throws {
        try await instrumentation.abandon(commandID: request.commandID, cartID: request.cartID, after: error) {
            try await decoratee.abandon(request, after: error)
        }
    }
}
