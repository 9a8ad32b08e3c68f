import Testing

/// The chaos suite: three worker processes on a real broker and a real PostgreSQL
/// take at least 5,000 mixed commands, hostile properties and re-used message ids among them, while a
/// worker is SIGKILLed and replaced, the broker's connections are closed, the broker is stopped and
/// started, the database is unreachable for seconds, and the payment gateway fails now and then and
/// times out after charging. Each fault is confirmed (the process gone, reconnects counted on every
/// worker's `/metrics`, connections cut and refused by the database proxy). Afterwards
/// ``ChaosInvariants`` must hold (a command never answered is one of them), and the figures are
/// printed. The run's seed is printed first; `CHAOS_SEED` replays its choices.
///
/// It stops a broker and cuts connections, so `scripts/test.sh` runs it on its own, on node 1 of the
/// test cluster (`scripts/test-servers.sh start-cluster`); the database is the shared test
/// PostgreSQL, made unreachable through a proxy of the test's own.
@Suite(.serialized, .timeLimit(.minutes(12)))
struct ChaosTests {
    @Test func everyCommandHasOneEffectThroughCrashesBrokerOutagesDatabaseCutsAndGatewayFailures() async throws {
        let seed = ChaosSeed.fromEnvironment()
        print("chaos seed: \(seed) (CHAOS_SEED=\(seed) replays this run's choices)")
        let world = try await ChaosWorld(
            "single", seed: seed, workerNodes: [1], clientNodes: [1], controlNode: 1,
            queueType: "classic", workerCount: 3, gatewayFailureRate: 0.05
        )
        do {
            try await ChaosRun(title: "chaos: one broker node (seed \(seed))", world: world).perform { timeline in
                try await timeline.wait(until: .seconds(4))
                try await timeline.record("worker SIGKILLed and replaced") {
                    try await world.workers.killAndReplace(0)
                }
                try await timeline.wait(until: .seconds(12))
                try await timeline.record("broker connections closed") {
                    let before = try await world.workers.reconnects()
                    try await TestServers.ctl(node: 1, "close_all_connections", "-p", world.vhost, "chaos: connections closed")
                    return try await world.workers.confirmReconnects(since: before)
                }
                try await timeline.wait(until: .seconds(20))
                try await timeline.record("broker stopped and started") {
                    let before = try await world.workers.reconnects()
                    try await TestServers.ctl(node: 1, "stop_app")
                    let down = await !TestServers.acceptsConnections(node: 1)
                    #expect(down, "node 1 refuses AMQP connections after stop_app")
                    try await Task.sleep(for: .seconds(3))
                    try await TestServers.ctl(node: 1, "start_app")
                    let reconnects = try await world.workers.confirmReconnects(since: before)
                    return "AMQP port \(down ? "refused" : "STILL ACCEPTED") connections while stopped; \(reconnects)"
                }
                try await timeline.wait(until: .seconds(34))
                try await timeline.record("database unreachable") {
                    let (closed, refused) = try await world.proxy.outage(for: .seconds(4))
                    #expect(closed > 0, "the cut closed the workers' open database connections")
                    #expect(refused > 0, "the proxy refused the workers' new database connections during the outage")
                    return "the proxy closed \(closed) channels and refused \(refused) connections"
                }
            }
        } catch {
            await world.closeEvenIfCancelled(savingLogs: true)
            throw error
        }
        await world.closeEvenIfCancelled(savingLogs: false)
    }
}
