import CheckoutMessaging
import Foundation
import RabbitMQ
import Testing

/// `checkout-worker dead-letters` run as a process, as an operator runs it, on a virtual host of its own
/// where the worker uses the contract's names.
@Suite struct DeadLettersCommandTests {
    @Test func listsShowsReplaysAndPurgesFromTheCommandLine() async throws {
        try await withVirtualHostWorld { world, _ in
            try await world.publishDeadLetter(.syncCart, Bodies.syncCart(cart: "cart-a"), messageID: "cli-a")
            try await world.publishDeadLetter(.placeOrder, "{not json", messageID: "cli-b", reason: "invalid-json", retryCount: 0)
            try await world.publishDeadLetter(
                .syncCart, Bodies.syncCart(cart: "cart-c"), messageID: nil, reason: "missing-message-id", retryCount: 0)

            let list = try await run(world, "list")
            #expect(await list.status == 0, "\(list.standardError)")
            #expect(list.outputLines.count == 5, "\(list.standardOutput)")
            #expect(list.outputLines[0].hasPrefix("POS"))
            #expect(
                list.outputLines[1].hasPrefix("1 ") && list.outputLines[1].contains("cart.sync") && list.outputLines[1].contains("cli-a"))
            #expect(list.outputLines[2].contains("invalid-json"))
            #expect(list.outputLines[4] == "3 of the 3 dead letters in checkout.dead-letter")

            let cut = try await run(world, "list", "--limit", "1")
            #expect(cut.outputLines.last == "1 of the 3 dead letters in checkout.dead-letter; a larger --limit lists more")

            let json = try await run(world, "list", "--json", "--limit", "2")
            #expect(json.standardError.contains("2 of the 3 dead letters in checkout.dead-letter; a larger --limit lists more"))
            let objects = try json.outputLines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
            #expect(objects.map { $0["messageId"] as? String } == ["cli-a", "cli-b"])
            #expect(objects.map { $0["retryCount"] as? Int } == [2, 0])

            let show = try await run(world, "show", "cli-b")
            #expect(await show.status == 0, "\(show.standardError)")
            #expect(show.standardOutput.contains("dead letter 2 of checkout.dead-letter, routing key order.place"))
            #expect(show.standardOutput.contains("{not json"))
            let missing = try await run(world, "show", "7")
            #expect(await missing.status == 1)
            #expect(missing.standardError.contains("no dead letter at position 7"))

            let dryRun = try await run(world, "replay", "--all", "--dry-run")
            #expect(await dryRun.status == 0, "\(dryRun.standardError)")
            #expect(dryRun.outputLines.last == "dry run: would replay 2, remove 0 duplicates and keep 1; nothing was published or removed")

            let refused = try await run(world, "purge", "--all")
            #expect(await refused.status == 64)
            #expect(refused.standardError.contains("--yes"))
            let purge = try await run(world, "purge", "--reason", "invalid-json", "--yes")
            #expect(await purge.status == 0, "\(purge.standardError)")
            #expect(purge.outputLines.last == "purged 1 dead letter from checkout.dead-letter")

            let replay = try await run(world, "replay", "1", "2")
            #expect(await replay.status == 0, "\(replay.standardError)")
            #expect(replay.outputLines.first?.hasPrefix("replay 1 cart.sync message_id cli-a") == true)
            #expect(replay.outputLines.last == "replayed 1, removed 0 duplicates, kept 1")
            try await world.events.wait { $0.properties.correlationID == "cli-a" && $0.properties.type == "cart.synced" }

            let after = try await run(world, "list", "--json")
            #expect(after.outputLines.count == 1)
            #expect(after.standardOutput.contains("missing-message-id"))
        }
    }

    /// SIGKILL in the middle of a replay, then the same replay again: every dead letter ends replayed
    /// once (its command handled once, its result published under one event id) or still dead-lettered.
    @Test func aReplayKilledHalfwayAndRunAgainEndsWithEachMessageReplayedOnceOrStillDeadLettered() async throws {
        try await withVirtualHostWorld { world, queue in
            let count = 300
            let ids = (1...count).map { "replay-\($0)" }
            for (index, id) in ids.enumerated() {
                try await world.publishDeadLetter(.syncCart, Bodies.syncCart(cart: "cart-\(index)"), messageID: id)
                if index % 100 == 50 {
                    try await world.publishDeadLetter(
                        .syncCart, Bodies.syncCart(cart: "cart-x\(index)"), messageID: nil, reason: "missing-message-id", retryCount: 0)
                }
            }

            let killed = try ExecutableRun(
                ExecutableRun.checkoutWorker, ["dead-letters", "replay", "--all"], environment: environment(world))
            let deadline = ContinuousClock.now + .seconds(30)
            while killed.outputLines.filter({ $0.hasPrefix("replay ") }).count < count / 2, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(1))
            }
            killed.killWithoutWarning()
            _ = await killed.status
            let replayedBeforeTheKill = killed.outputLines.filter { $0.hasPrefix("replay ") }.count
            #expect(replayedBeforeTheKill >= count / 2, "\(killed.standardOutput)\(killed.standardError)")

            // Nothing is lost: each command is still dead-lettered or was handled; none is dead-lettered twice.
            let afterTheKill = try await queue.all().compactMap(\.messageID)
            #expect(afterTheKill.count < count, "the replay was killed before it finished")
            #expect(Set(afterTheKill).count == afterTheKill.count)
            #expect(try await eventually { Set(afterTheKill).union(world.events.all.compactMap(\.properties.correlationID)) == Set(ids) })

            let rerun = try await ExecutableRun.run(
                ExecutableRun.checkoutWorker, ["dead-letters", "replay", "--all"], environment: environment(world))
            #expect(await rerun.status == 0, "\(rerun.standardError)")
            #expect(rerun.outputLines.last?.hasSuffix("kept 3") == true, "\(rerun.outputLines.last ?? "")")

            // Every command handled once: one event id each, every cart at version 1, no rejection.
            #expect(try await eventually { Set(world.events.all.compactMap(\.properties.correlationID)) == Set(ids) })
            let events = world.events.all
            #expect(events.allSatisfy { $0.properties.type == "cart.synced" })
            #expect(events.allSatisfy { Bodies.json($0)["version"] as? Int == 1 })
            #expect(Set(events.compactMap(\.properties.messageID)).count == count)

            // What cannot be replayed is still dead-lettered, once each.
            let left = try await queue.all()
            #expect(left.count == 3)
            #expect(left.allSatisfy { $0.reason == "missing-message-id" && $0.messageID == nil })
        }
    }

    /// Whether positions hold is asked with a declare, which needs the configure permission: a user who
    /// may only read and write the queue is refused positions, told why, and names dead letters otherwise.
    @Test func aUserWhoMayNotConfigureTheQueueIsToldWhyPositionsAreRefused() async throws {
        try await withVirtualHostWorld { world, _ in
            try await world.publishDeadLetter(
                .syncCart, Bodies.syncCart(), messageID: nil, reason: "missing-message-id", retryCount: 0)
            let virtualHost = try #require(URL(string: world.brokerURL)?.lastPathComponent)
            try await TestVirtualHost.withUser(on: virtualHost, configure: "^$", write: ".*", read: ".*") { url in
                let environment = ["CHECKOUT_AMQP_URL": url, "CHECKOUT_LOG_LEVEL": "warning"]
                let refused = try await ExecutableRun.run(
                    ExecutableRun.checkoutWorker, ["dead-letters", "show", "1"], environment: environment)
                #expect(await refused.status == 1)
                #expect(refused.standardError.contains("this user may not configure the queue"), "\(refused.standardError)")

                let list = try await ExecutableRun.run(ExecutableRun.checkoutWorker, ["dead-letters", "list"], environment: environment)
                #expect(await list.status == 0, "\(list.standardError)")
                #expect(list.outputLines.last?.hasPrefix("cannot tell whether positions in checkout.dead-letter hold") == true)

                let byReason = try await ExecutableRun.run(
                    ExecutableRun.checkoutWorker, ["dead-letters", "show", "--reason", "missing-message-id"], environment: environment)
                #expect(await byReason.status == 0, "\(byReason.standardError)")
                #expect(byReason.standardOutput.contains("x-error-reason: missing-message-id"))
            }
        }
    }

    /// Anyone allowed to publish to the dead-letter exchange can set its time: one past any date is shown
    /// as unknown, not turned into an age that does not fit.
    @Test func listsADeadLetterWhoseTimeIsPastAnyDate() async throws {
        try await withVirtualHostWorld { world, _ in
            try await world.publishDeadLetter(
                .syncCart, Bodies.syncCart(), messageID: "cli-far", at: AMQPTimestamp(secondsSince1970: .max))

            let list = try await run(world, "list")
            #expect(await list.status == 0, "\(list.standardError)")
            #expect(list.outputLines.count == 3 && list.outputLines[1].contains("cli-far"), "\(list.standardOutput)")
            let json = try await run(world, "list", "--json")
            #expect(await json.status == 0, "\(json.standardError)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
            #expect(object["messageId"] as? String == "cli-far")
            #expect(object["ageSeconds"] == nil || object["ageSeconds"] is NSNull)
        }
    }

    private func run(_ world: TestWorld, _ arguments: String...) async throws -> ExecutableRun {
        try await ExecutableRun.run(ExecutableRun.checkoutWorker, ["dead-letters"] + arguments, environment: environment(world))
    }

    private func environment(_ world: TestWorld) -> [String: String] {
        ["CHECKOUT_AMQP_URL": world.brokerURL, "CHECKOUT_LOG_LEVEL": "warning"]
    }
}

/// Runs `body` with a virtual host of its own, a world with the contract's names in it whose dead
/// letters stay in their queue, and a running worker; deletes the virtual host afterwards.
func withVirtualHostWorld(_ body: (TestWorld, DeadLetterQueue) async throws -> Void) async throws {
    let host = try await TestVirtualHost.create()
    do {
        let world = try await TestWorld("cli", virtualHost: host.name, collectsDeadLetters: false)
        let worker = try await world.startWorker()
        try await world.tearingDown(worker) { try await body(world, DeadLetterQueue(connection: world.client, configuration: world.names)) }
    } catch {
        try? await host.delete()
        throw error
    }
    try await host.delete()
}

/// Polls `condition` until it holds or `timeout` passes; whether it held.
private func eventually(timeout: Duration = .seconds(30), _ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try await Task.sleep(for: .milliseconds(50))
    }
    return try await condition()
}
