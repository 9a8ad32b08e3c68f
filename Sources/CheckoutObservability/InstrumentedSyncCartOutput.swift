public import CheckoutDomain
public import Logging
import Metrics

/// Logs and counts the outcomes of `cart.sync` on their way to the real output.
///
/// Counts `checkout_cart_syncs_total{result="synced"}` or `{result="rejected", reason}` and
/// `checkout_cart_adjustments_total{reason}`, after the decoratee reported the outcome, so an
/// outcome that failed to publish is not counted until its redelivery reports it. Replays count again.
public struct InstrumentedSyncCartOutput: SyncCartUseCaseOutput {
    private let decoratee: any SyncCartUseCaseOutput
    private let logger: Logger
    private let metrics: SyncCartMetrics

    public init(_ decoratee: any SyncCartUseCaseOutput, logger: Logger, metrics: SyncCartMetrics) {
        self.decoratee = decoratee
        self.logger = logger
        self.metrics = metrics
    }

    public func didSync(_ synced: SyncedCart) async throws {
        try await decoratee.didSync(synced)
        metrics.synced.increment()
        for adjustment in synced.adjustments {
            metrics.adjusted[adjustment.reason]?.increment()
        }
        logger.info(
            "cart synced",
            metadata: [
                "cart.id": "\(synced.cart.id)",
                "cart.version": .stringConvertible(synced.cart.version),
                "cart.lines": .stringConvertible(synced.cart.lines.count),
                "cart.subtotal_minor_units": .stringConvertible(synced.cart.subtotal.minorUnits),
                "cart.currency": "\(synced.cart.subtotal.currency)",
                "cart.adjustments": .array(synced.adjustments.map { "\($0.reason.rawValue)" }),
            ])
    }

    public func didReject(_ rejection: SyncCartRejection) async throws {
        try await decoratee.didReject(rejection)
        metrics.rejected[rejection.reason]?.increment()
        var metadata: Logger.Metadata = [
            "cart.id": "\(rejection.cartID)",
            "rejection.reason": "\(rejection.reason.rawValue)",
            "rejection.message": "\(rejection.message)",
        ]
        if let currentVersion = rejection.currentVersion {
            metadata["cart.version"] = .stringConvertible(currentVersion)
        }
        logger.notice("cart sync rejected", metadata: metadata)
    }
}
