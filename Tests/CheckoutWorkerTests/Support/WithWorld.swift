import Foundation

/// Runs `body` with a fresh world and a worker, and tears both down whatever happens.
func withWorld(_ environment: [String: String] = [:], _ body: (TestWorld) async throws -> Void) async throws {
    try await withWorld(environment) { world, _ in try await body(world) }
}

/// Runs `body` with a fresh world and its worker, for tests that also read the worker's metrics.
func withWorld(_ environment: [String: String] = [:], _ body: (TestWorld, RunningWorker) async throws -> Void) async throws {
    let world = try await TestWorld()
    let worker = try await world.startWorker(environment)
    try await world.tearingDown(worker) { try await body(world, worker) }
}
