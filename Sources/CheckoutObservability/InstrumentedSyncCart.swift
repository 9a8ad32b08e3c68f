public import CheckoutDomain
public import Logging

/// Logs and measures every `cart.sync` around a ``SyncCart``, so the use case itself knows
/// nothing of logging or metrics.
///
/// Records `checkout_command_duration_seconds{command="cart.sync", result="handled|retryable|failed"}`
/// and `checkout_command_retries_total{command, code}`, and `checkout_commands_abandoned_total{command, code}`
/// for commands given up after their last retry; logs a warning for a retryable error and
/// an error for any other, then rethrows it unchanged.
public struct InstrumentedSyncCart: SyncCart {
    private let decoratee: any SyncCart
    private let instrumentation: CommandInstrumentation

    public init(_ decoratee: any SyncCart, logger: Logger, metrics: SyncCartMetrics) {
        self.decoratee = decoratee
        instrumentation = CommandInstrumentation(logger: logger, metrics: metrics.command)
    }

    public func execute(_ request: SyncCartRequest) async throws {
        try await instrumentation.run(commandID: request.commandID, cartID: request.cartID) {
            try await decoratee.execute(request)
        }
    }

    public func abandon(_ request: SyncCartRequest, after error: RetryableError) async throws {
        try await instrumentation.abandon(commandID: request.commandID, cartID: request.cartID, after: error) {
            try await decoratee.abandon(request, after: error)
        }
    }
}
