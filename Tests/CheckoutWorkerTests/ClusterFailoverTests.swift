import Testing

/// The cluster run (issue #8): the chaos suite's load and invariants on the three-node test cluster
/// with quorum queues. Workers get every node's URL; the node they are connected to is stopped in
/// the middle of the load (Erlang VM and all), they fail over to another, and the node is started
/// again while the load goes on.
///
/// It stops a node, so `scripts/test.sh` runs it on its own, after ``ChaosTests``.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct ClusterFailoverTests {
    @Test func workersFailOverWhenTheirNodeStopsAndEveryInvariantStillHolds() async throws {
        let world = try await ChaosWorld(
            "cluster", workerNodes: [1, 2, 3], clientNodes: [1, 2, 3], controlNode: 2,
            queueType: "quorum", workerCount: 3, gatewayFailureRate: 0.02
        )
        do {
            var run = ChaosRun(title: "cluster: node 1 stopped under load", world: world)
            run.minimumCarts = 400
            try await run.perform { timeline in
                try await timeline.wait(until: .seconds(6))
                let before = try await WorkerConnections.byNode(asking: 2, vhost: world.vhost)
                #expect(before == [1: 3], "the workers first connect to node 1, the first URL: \(before)")
                try await timeline.record("node 1 stopped") {
                    try await TestServers.stopNode(1)
                }
                try await timeline.wait(until: .seconds(20))
                let after = try await WorkerConnections.byNode(asking: 2, vhost: world.vhost)
                #expect(after[1] == nil && after.values.reduce(0, +) == 3, "the workers failed over to nodes 2 and 3: \(after)")
                try await timeline.record("node 1 started again") {
                    try await TestServers.startNode(1)
                }
            }
        } catch {
            await world.closeEvenIfCancelled(savingLogs: true)
            throw error
        }
        await world.closeEvenIfCancelled(savingLogs: false)
    }
}
