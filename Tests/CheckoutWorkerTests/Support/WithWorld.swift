import Foundation

/// Runs `body` with a fresh world and a worker, and tears both down whatever happens.
func withWorld(_ environment: [String: String] = [:], _ body: (TestWorld) async throws -> Void) async throws {
    let world = try await TestWorld()
    let worker = try await world.startWorker(environment)
    do {
        try await body(world)
    } catch {
        try? await worker.stop()
        await world.close()
        throw error
    }
    try await worker.stop()
    await world.close()
}
