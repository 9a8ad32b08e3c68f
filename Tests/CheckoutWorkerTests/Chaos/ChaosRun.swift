import CheckoutPaymentsTesting
import Foundation
import Testing

/// A chaos run from load to verdict: shoppers drive ``CartJourney``s while a fault script breaks
/// things; then the run waits until every command is answered and every queue drained, stops the
/// workers as an orchestrator would, checks ``ChaosInvariants`` and prints a ``ChaosReport``.
struct ChaosRun {
    let title: String
    let world: ChaosWorld
    let load: ChaosLoad
    /// Customers checking out at once.
    var shoppers = 48
    /// The run goes on after the faults until this many commands were sent.
    var minimumCommands = 5000
    var maximumCarts = 4000
    /// A loss of commands this run is known to show, and why: such violations are recorded as a known
    /// issue (shown in every run, failing none); any other violation fails the run.
    let knownLoss: Comment?

    init(title: String, world: ChaosWorld, knownLoss: Comment? = nil) {
        self.title = title
        self.world = world
        self.knownLoss = knownLoss
        load = ChaosLoad(seed: world.seed)
    }

    /// Runs the load and `faults` side by side, then checks everything.
    func perform(faults: @escaping @Sendable (FaultTimeline) async throws -> Void) async throws {
        let timeline = FaultTimeline(seed: world.seed)
        let dispenser = CartDispenser(minimumCommands: minimumCommands, maximum: maximumCarts) { [world] in
            world.client.sent.publishCounts.count
        }
        let progress = Task { [world] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(5))
                print(
                    "[\(title) +\(ContinuousClock.now - timeline.start)] carts \(dispenser.count), commands \(world.client.sent.commands.count), events \(world.client.events.count), dead letters \(world.client.deadLetters.all.count), publish retries \(world.client.sent.publishRetries), client resends \(world.client.sent.clientResends.count)"
                )
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
            sent: world.client.sent.commands, publishCounts: world.client.sent.publishCounts, malformed: world.client.sent.malformed,
            events: events,
            deadLetters: deadLetters, store: store, ledger: ledger, queues: queues
        ).violations()
        let report = ChaosReport(
            title: title, duration: duration, carts: dispenser.count, sent: world.client.sent, events: events,
            deadLetters: deadLetters, store: store, ledger: ledger, queues: queues,
            faults: timeline.faults(eventArrivals: world.client.events.arrivals), violations: violations.count
        )
        print(report.text)
        #expect(world.client.sent.commands.count >= minimumCommands, "the run sent at least \(minimumCommands) commands")
        let isLoss = { (violation: String) in violation.contains("was never answered") || violation.contains("a publish was lost") }
        // A lost command that had charged keeps its charge: nothing is left to refund it. Same cause.
        let lost = Set(violations.filter(isLoss).compactMap { $0.split(separator: " ").first.map(String.init) })
        // Only a command that sat in a retry queue can be the known loss; any other loss fails the run.
        let parked = knownLoss == nil ? [] : world.workers.parkedInRetryQueues(lost)
        let isChargeOfALoss = { (violation: String) in
            violation.hasSuffix("has neither an order nor a refund") && parked.contains { violation.contains(" of \($0) ") }
        }
        // A lost command whose order was stored leaves it unannounced (an order's id is its command's message id).
        let parkedMessageIDs = parked.map { world.client.sent.commands[$0]?.messageID ?? $0 }
        let isOrderOfALoss = { (violation: String) in
            violation.hasSuffix("is stored but no order.placed event announced it")
                && parkedMessageIDs.contains { violation.hasPrefix("order \($0) ") }
        }
        let isKnownLoss = { (violation: String) in
            isLoss(violation) && violation.split(separator: " ").first.map { parked.contains(String($0)) } == true
        }
        let known = knownLoss.map { _ in violations.filter { isKnownLoss($0) || isChargeOfALoss($0) || isOrderOfALoss($0) } } ?? []
        let failing = violations.filter { !known.contains($0) }
        if let knownLoss, !known.isEmpty {
            withKnownIssue(knownLoss) {
                for violation in known.prefix(40) { Issue.record(Comment(rawValue: violation)) }
            }
        }
        // With the seed, the part of a CI log that shows a failure is enough to replay its choices.
        for violation in failing.prefix(40) {
            Issue.record(Comment(rawValue: "\(violation) (CHAOS_SEED=\(world.seed))"))
        }
        if failing.count > 40 {
            Issue.record("… and \(failing.count - 40) more broken invariants")
        }
        if !violations.isEmpty {
            world.saveLogs()
        }
        // The losses no known issue explains first: they are what a failed run must show.
        for id in (lost.subtracting(parked).sorted() + parked.sorted()).prefix(5) {
            print(trace(of: id, since: timeline.start))
        }
    }

    /// When the broker confirmed command `id` and what the workers logged about its message id, for
    /// the output of a run that lost it.
    private func trace(of id: String, since start: ContinuousClock.Instant) -> String {
        let messageID = world.client.sent.commands[id]?.messageID ?? id
        let confirmed = world.client.sent.firstConfirmed(id).map { "confirmed at +\($0 - start)" } ?? "never confirmed"
        let lines = world.workers.logLines(containing: messageID)
        let shown = lines.isEmpty ? ["(no worker logged it)"] : lines.prefix(30) + (lines.count > 30 ? ["… \(lines.count - 30) more"] : [])
        return (["lost \(id) (message id \(messageID)), \(confirmed); worker log lines:"] + shown).joined(separator: "\n  ")
    }

    /// Waits until every publish of every command was answered and every queue of the vhost is
    /// empty (retried commands back from their retry queues and answered), or until nothing moved for
    /// a minute (what is missing then is reported as violations), within four minutes; returns the
    /// last queue count.
    private func drain() async throws -> [QueueDepth] {
        let deadline = ContinuousClock.now + .seconds(240)
        var seen = world.client.events.count
        var lastProgress = ContinuousClock.now
        var queues: [QueueDepth] = []
        // `rabbitmqctl list_queues` reads queue after queue: a message on its way from a retry queue to
        // its work queue can be in neither, so only empty listings in a row are believed.
        var emptyListings = 0
        while ContinuousClock.now < deadline {
            let events = world.client.events.byCommand
            let unanswered = world.client.sent.publishCounts.filter { id, count in (events[id]?.count ?? 0) < count }
            let now = world.client.events.count
            if now != seen {
                seen = now
                lastProgress = .now
            }
            let stalled = ContinuousClock.now - lastProgress > .seconds(60)
            if unanswered.isEmpty || stalled {
                queues = try await QueueDepth.list(node: world.controlNode, vhost: world.vhost)
                emptyListings = queues.contains(where: { !$0.isEmpty }) ? 0 : emptyListings + 1
                if emptyListings >= 3 || stalled && ContinuousClock.now - lastProgress > .seconds(90) {
                    return queues
                }
            }
            try await Task.sleep(for: .seconds(1))
        }
        return try await QueueDepth.list(node: world.controlNode, vhost: world.vhost)
    }
}
