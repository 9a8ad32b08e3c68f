@testable import checkout_worker
import Foundation

/// A worker running in the background of a test, stopped as SIGTERM would stop it.
final class RunningWorker: Sendable {
    let worker: Worker
    private let running: Task<Void, any Error>

    init(_ worker: Worker) {
        self.worker = worker
        running = Task { try await worker.run() }
    }

    /// Triggers graceful shutdown and waits until every service stopped.
    func stop() async throws {
        await worker.shutDown()
        try await running.value
    }
}
