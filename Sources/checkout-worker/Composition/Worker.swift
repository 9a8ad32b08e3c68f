import CheckoutPersistence
import ServiceLifecycle

/// The assembled worker: its services in one group, and the store tests look into.
struct Worker: Sendable {
    /// The worker's database, for tests that stock the catalog or look at what was stored.
    let store: CheckoutStore
    let serviceGroup: ServiceGroup

    /// Runs until SIGTERM or SIGINT (or ``shutDown()``), then drains and closes everything.
    func run() async throws {
        try await serviceGroup.run()
    }

    /// What SIGTERM does: stop consuming, finish what is in flight, close.
    func shutDown() async {
        await serviceGroup.triggerGracefulShutdown()
    }
}
