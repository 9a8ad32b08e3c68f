import CheckoutMessaging
import CheckoutOperations
import CheckoutPersistence
import Logging
import RabbitMQ
import ServiceLifecycle

/// The assembled worker: its services, in the order they start, and the parts tests look into.
struct Worker: Sendable {
    let store: CheckoutStore
    let connection: AMQPConnection
    let commands: CommandWorker
    let operations: OperationsServer
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
