import Testing

/// The cluster run: the chaos suite's load and invariants on the three-node test
/// cluster with quorum queues. Workers get every node's URL; the node they are connected to is stopped
/// in the middle of the load (Erlang VM and all), which is confirmed from outside (its AMQP port
/// refuses connections) and by every worker's reconnect counter; they fail over to another, and the
/// node is started again while the load goes on.
///
/// It stops a node, so `scripts/test.sh` runs it on its own, after ``ChaosTests``.
@Suite(.serialized, .timeLimit(.minutes(12)))
struct ClusterFailoverTests {
    @Test func workersFailOverWhenTheirNodeStopsAndEveryInvariantStillHolds() async throws {
        let seed = ChaosSeed.fromEnvironment()
        print("chaos seed: \(seed) (CHAOS_SEED=\(seed) replays this run's choices)")
        let world = try await ChaosWorld(
            "cluster", seed: seed, workerNodes: [1, 2, 3], clientNodes: [1, 2, 3], controlNode: 2,
            queueType: "quorum", workerCount: 3, gatewayFailureRate: 0.02
        )
        do {
            let run = ChaosRun(
                title: "cluster: node 1 stopped under load (seed \(seed))", world: world,
                knownLoss:
                    "RabbitMQ 3.10.8: a quorum retry queue whose leader node stopped can drop or keep its expired messages instead of dead-lettering them back (docs/operations.md, Known limitations)"
            )
            try await run.perform { timeline in
                try await timeline.wait(until: .seconds(6))
                let before = try await WorkerConnections.byNode(asking: 2, vhost: world.vhost)
                #expect(before == [1: 3], "the workers first connect to node 1, the first URL: \(before)")
                try await timeline.record("node 1 stopped") {
                    let reconnects = try await world.workers.reconnects()
                    try await TestServers.stopNode(1)
                    let down = await !TestServers.acceptsConnections(node: 1)
                    #expect(down, "node 1 refuses AMQP connections once stopped")
                    let confirmed = try await world.workers.confirmReconnects(since: reconnects)
                    return "AMQP port \(down ? "refused" : "STILL ACCEPTED") connections; \(confirmed)"
                }
                // Event-based: the workers are on the other nodes once they counted their reconnect.
                let after = try await WorkerConnections.byNode(asking: 2, vhost: world.vhost)
                #expect(after[1] == nil && after.values.reduce(0, +) == 3, "the workers failed over to nodes 2 and 3: \(after)")
                try await timeline.wait(until: .seconds(20))
                try await timeline.record("node 1 started again") {
                    try await TestServers.startNode(1)
                    let up = await TestServers.acceptsConnections(node: 1)
                    #expect(up, "node 1 takes AMQP connections again")
                    return "AMQP port \(up ? "accepts" : "STILL REFUSES") connections"
                }
            }
        } catch {
            await world.closeEvenIfCancelled(savingLogs: true)
            throw error
        }
        await world.closeEvenIfCancelled(savingLogs: false)
    }
}
