import CheckoutOperations
import ServiceLifecycle

/// The assembled worker: its services in one group.
struct Worker: Sendable {
    let serviceGroup: ServiceGroup
    let operations: OperationsServer
    let deadline: ShutdownDeadline

    /// Runs until SIGTERM or SIGINT (or ``shutDown()``), then drains and closes everything; throws the
    /// error a service failed with, such as a start-up step's.
    func run() async throws {
        defer { deadline.disarm() }
        try await serviceGroup.run()
    }

    /// What `/health/ready` answers now: whether the broker and the database answer and both command
    /// queues are consumed.
    var isReady: Bool {
        get async { await operations.isReady() }
    }

    /// What SIGTERM does: stop consuming, finish what is in flight, close.
    func shutDown() async {
        await serviceGroup.triggerGracefulShutdown()
    }
}
