import Testing

/// The chaos suite (issue #8): three worker processes on a real broker and a real PostgreSQL take
/// thousands of mixed commands while a worker is SIGKILLed and replaced, the broker's connections
/// are closed, the broker is stopped and started, the database is unreachable for seconds, and the
/// payment gateway fails now and then and times out after charging. Afterwards ``ChaosInvariants``
/// must hold, and the figures are printed.
///
/// It stops a broker and cuts connections, so `scripts/test.sh` runs it on its own, on node 1 of the
/// test cluster (`scripts/test-servers.sh start-cluster`); the database is the shared test
/// PostgreSQL, made unreachable through a proxy of the test's own.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct ChaosTests {
    @Test func everyCommandHasOneEffectThroughCrashesBrokerOutagesDatabaseCutsAndGatewayFailures() async throws {
        let world = try await ChaosWorld(
            "single", workerNodes: [1], clientNodes: [1], controlNode: 1,
            queueType: "classic", workerCount: 3, gatewayFailureRate: 0.05
        )
        do {
            try await ChaosRun(title: "chaos: one broker node", world: world).perform { timeline in
                try await timeline.wait(until: .seconds(4))
                try await timeline.record("worker SIGKILLed and replaced") {
                    try await world.workers.killAndReplace(0)
                }
                try await timeline.wait(until: .seconds(12))
                try await timeline.record("broker connections closed") {
                    try await TestServers.ctl(node: 1, "close_all_connections", "-p", world.vhost, "chaos: connections closed")
                }
                try await timeline.wait(until: .seconds(20))
                try await timeline.record("broker stopped and started") {
                    try await TestServers.ctl(node: 1, "stop_app")
                    try await Task.sleep(for: .seconds(3))
                    try await TestServers.ctl(node: 1, "start_app")
                }
                try await timeline.wait(until: .seconds(34))
                try await timeline.record("database unreachable") {
                    world.proxy.cut()
                    try await Task.sleep(for: .seconds(4))
                    world.proxy.restore()
                }
            }
        } catch {
            await world.closeEvenIfCancelled(savingLogs: true)
            throw error
        }
        await world.closeEvenIfCancelled(savingLogs: false)
    }
}
