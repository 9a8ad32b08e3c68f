import CheckoutOperations
import Foundation
import Prometheus

@testable import checkout_worker

/// A worker running in the background of a test, stopped as SIGTERM would stop it.
final class RunningWorker: Sendable {
    let worker: Worker
    let metrics: MetricsBootstrap
    private let running: Task<Void, any Error>

    init(_ worker: Worker, metrics: MetricsBootstrap) {
        self.worker = worker
        self.metrics = metrics
        running = Task { try await worker.run() }
    }

    /// The sum of a counter over its label values, read from this worker's `/metrics` registry.
    func total(of counter: String) -> Double {
        metrics.registry.emitToString().split(separator: "\n")
            .filter { $0.hasPrefix(counter + "{") || $0.hasPrefix(counter + " ") }
            .compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }
            .reduce(0, +)
    }

    /// Triggers graceful shutdown and waits until every service stopped.
    func stop() async throws {
        await worker.shutDown()
        try await running.value
    }
}
