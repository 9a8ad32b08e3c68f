import ServiceLifecycle

/// Keeps a resource open while the worker runs and closes it at shutdown.
///
/// Placed before the services that use the resource: a ServiceGroup stops its services in reverse
/// order, so the resource closes only after they finished with it.
struct ClosingService: Service, CustomStringConvertible {
    let description: String
    let close: @Sendable () async -> Void

    func run() async throws {
        try? await gracefulShutdown()
        await close()
    }
}
