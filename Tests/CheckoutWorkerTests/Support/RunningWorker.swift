import CheckoutOperations
import Foundation
import Prometheus
import Synchronization

@testable import checkout_worker

/// A worker running in the background of a test, stopped as SIGTERM would stop it.
final class RunningWorker: Sendable {
    let worker: Worker
    let metrics: MetricsBootstrap
    private let running: Task<Void, any Error>

    /// Runs `worker` and returns once it is ready, as `/health/ready` says; throws the error its start-up
    /// failed with.
    init(_ worker: Worker, metrics: MetricsBootstrap, readyWithin limit: Duration = .seconds(60)) async throws {
        self.worker = worker
        self.metrics = metrics
        let stopped = Atomic<Bool>(false)
        running = Task {
            defer { stopped.store(true, ordering: .relaxed) }
            try await worker.run()
        }
        let deadline = ContinuousClock.now + limit
        while await !worker.isReady {
            if stopped.load(ordering: .relaxed) {
                try await running.value
                throw WorkerProcessError(code: .exitedEarly, context: "the worker stopped before it was ready")
            }
            guard ContinuousClock.now < deadline else {
                await worker.shutDown()
                throw WorkerProcessError(code: .timedOut, context: "the worker was not ready within \(limit)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
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
