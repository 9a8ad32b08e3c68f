public import CheckoutDomain
public import Logging
import Metrics

/// Logs and counts the outcomes of `order.place` on their way to the real output.
///
/// Counts `checkout_orders_total{result="placed"}` or `{result="rejected", reason}` after the
/// decoratee reported the outcome, so an outcome that failed to publish is not counted until its
/// redelivery reports it. Replays count again.
public struct InstrumentedPlaceOrderOutput: PlaceOrderUseCaseOutput {
    private let decoratee: any PlaceOrderUseCaseOutput
    private let logger: Logger
    private let metrics: PlaceOrderMetrics

    public init(_ decoratee: any PlaceOrderUseCaseOutput, logger: Logger, metrics: PlaceOrderMetrics) {
        self.decoratee = decoratee
        self.logger = logger
        self.metrics = metrics
    }

    public func didPlace(_ order: Order) async throws {
        try await decoratee.didPlace(order)
        metrics.placed.increment()
        logger.info(
            "order placed",
            metadata: [
                "order.id": "\(order.id)",
                "cart.id": "\(order.cartID)",
                "order.total_minor_units": .stringConvertible(order.total.minorUnits),
                "order.currency": "\(order.total.currency)",
                "payment.id": "\(order.payment.id)",
            ])
    }

    public func didReject(_ rejection: PlaceOrderRejection) async throws {
        try await decoratee.didReject(rejection)
        metrics.rejected[rejection.reason]?.increment()
        var metadata: Logger.Metadata = [
            "cart.id": "\(rejection.cartID)",
            "rejection.reason": "\(rejection.reason.rawValue)",
            "rejection.message": "\(rejection.message)",
        ]
        if let declineCode = rejection.declineCode {
            metadata["payment.decline_code"] = "\(declineCode)"
        }
        if let refunded = rejection.refundedPayment {
            metadata["payment.refunded_id"] = "\(refunded.id)"
        }
        logger.notice("order rejected", metadata: metadata)
    }
}
