import CheckoutPaymentsTesting
import Foundation
import Testing

/// A chaos run from load to verdict: shoppers drive ``CartJourney``s while a fault script breaks
/// things; then the run waits until every command is answered and every queue drained, stops the
/// workers as an orchestrator would, checks ``ChaosInvariants`` and prints a ``ChaosReport``.
struct ChaosRun {
    let title: String
    let world: ChaosWorld
    let load = ChaosLoad()
    /// Customers checking out at once.
    var shoppers = 24
    var minimumCarts = 600
    var maximumCarts = 2500

    /// Runs the load and `faults` side by side, then checks everything.
    func perform(faults: @escaping @Sendable (FaultTimeline) async throws -> Void) async throws {
        let timeline = FaultTimeline()
        let dispenser = CartDispenser(minimum: minimumCarts, maximum: maximumCarts)
        let progress = Task { [world] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(5))
                print("[\(title) +\(ContinuousClock.now - timeline.start)] carts \(dispenser.count), commands \(world.client.sent.commands.count), events \(world.client.events.count), dead letters \(world.client.deadLetters.all.count), publish retries \(world.client.sent.publishRetries), resends \(world.client.sent.resends)")
            }
        }
        defer { progress.cancel() }
        try await withThrowingTaskGroup(of: Void.self) { [load, world, shoppers] group in
            group.addTask {
                try await faults(timeline)
                dispenser.faultsAreOver()
            }
            for _ in 0..<shoppers {
                group.addTask {
                    while let index = dispenser.next() {
                        try await CartJourney(load: load, index: index, client: world.client).run()
                    }
                }
            }
            try await group.waitForAll()
        }
        let queues = try await drain()
        #expect(queues.contains { $0.name == "checkout.place-order" }, "rabbitmqctl list_queues shows the vhost's queues: \(queues)")
        let statuses = try await world.workers.stop()
        #expect(statuses.allSatisfy { $0 == 0 }, "workers stopped by SIGTERM exit 0, these \(statuses)")
        let duration = ContinuousClock.now - timeline.start

        let store = try await world.storeState()
        let ledger = world.stripe.ledger
        let events = world.client.events.byCommand
        let deadLetters = world.client.deadLetters.all
        let violations = ChaosInvariants(
            sent: world.client.sent.commands, malformed: world.client.sent.malformed, events: events,
            deadLetters: deadLetters, store: store, ledger: ledger, queues: queues
        ).violations()
        let report = ChaosReport(
            title: title, duration: duration, carts: dispenser.count, sent: world.client.sent, events: events,
            deadLetters: deadLetters, store: store, ledger: ledger, queues: queues,
            faults: timeline.faults(eventArrivals: world.client.events.arrivals), violations: violations.count
        )
        print(report.text)
        for violation in violations.prefix(40) {
            Issue.record(Comment(rawValue: violation))
        }
        if violations.count > 40 {
            Issue.record("… and \(violations.count - 40) more broken invariants")
        }
        if !violations.isEmpty {
            world.saveLogs()
        }
    }

    /// Waits until no event came for three seconds, then until every queue of the vhost is empty
    /// (retried commands back from their retry queues and answered); returns the last count.
    private func drain() async throws -> [QueueDepth] {
        let deadline = ContinuousClock.now + .seconds(45)
        var seen = world.client.events.count
        while ContinuousClock.now < deadline {
            try await Task.sleep(for: .seconds(3))
            let now = world.client.events.count
            if now == seen { break }
            seen = now
        }
        var queues = try await QueueDepth.list(node: world.controlNode, vhost: world.vhost)
        while queues.contains(where: { !$0.isEmpty }), ContinuousClock.now < deadline {
            try await Task.sleep(for: .seconds(2))
            queues = try await QueueDepth.list(node: world.controlNode, vhost: world.vhost)
        }
        return queues
    }
}
