import CheckoutPersistence
import Logging

/// Renews this worker's liveness in the database while it handles commands, and retires it at the end.
///
/// ``CommandHandlingService`` runs it beside the command worker and cancels it only once every command
/// in flight has finished: until then other workers leave this one's claims alone. A worker killed
/// outright stops renewing, and its claims are taken over within ``CheckoutStore/livenessWindow``.
struct WorkerLiveness {
    let store: CheckoutStore
    let logger: Logger

    /// Renews every ``CheckoutStore/livenessInterval`` until cancelled, then retires.
    func renewUntilCancelled() async {
        var failures = 0
        while !Task.isCancelled {
            do {
                try await store.renewLiveness()
                failures = 0
            } catch {
                failures += 1
                logger.warning(
                    "could not renew this worker's liveness; its claims may be taken over", error: error,
                    metadata: [
                        "liveness.failures": .stringConvertible(failures)
                    ])
            }
            try? await Task.sleep(for: CheckoutStore.livenessInterval)
        }
        do {
            // In a task of its own: this one is cancelled, and a cancelled caller stops waiting for the database.
            try await Task { try await store.retire() }.value
        } catch {
            logger.warning("could not retire this worker; its claims are free once its liveness runs out", error: error)
        }
    }
}
