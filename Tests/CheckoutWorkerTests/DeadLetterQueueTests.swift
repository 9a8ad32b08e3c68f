import CheckoutDomain
import CheckoutMessaging
import CheckoutPersistence
import Foundation
import RabbitMQ
import SQLiteNIO
import Testing

@testable import checkout_worker

/// The operator's dead-letter tools (`DeadLetterQueue`, under `checkout-worker dead-letters`) on the
/// real broker, with dead letters made by a real worker.
@Suite struct DeadLetterQueueTests {
    @Test func listsEveryDeadLetterInQueueOrderWithWhyItIsThereAndRemovesNone() async throws {
        try await withDeadLetters { world, queue in
            let letters = try await queue.all()
            #expect(letters.map(\.summary) == MixedDeadLetters.expected(in: world))
            #expect(letters.map(\.position) == [1, 2, 3, 4, 5])
            for letter in letters {
                #expect(letter.detail?.isEmpty == false)
                #expect(try #require(letter.deadLetteredAt).timeIntervalSinceNow > -60)
            }

            var firstTwo: [String?] = []
            let held = try await queue.list(limit: 2) { firstTwo.append($0.messageID) }
            #expect(held == 5)
            #expect(firstTwo == ["bad-json", nil])
            #expect(
                try await queue.all().map(\.summary) == MixedDeadLetters.expected(in: world), "listing removes nothing and keeps the order")
        }
    }

    @Test func findsADeadLetterByPositionOrByMessageID() async throws {
        try await withDeadLetters { world, queue in
            #expect(try await queue.find(.ids([.position(3)])).map(\.messageID) == ["bad-field"])
            #expect(try await queue.find(.ids([DeadLetterID("5")])).map(\.messageID) == ["order-flaky"])
            #expect(try await queue.find(.ids([DeadLetterID("order-flaky")])).map(\.position) == [5])
            #expect(try await queue.find(.ids([.messageID("nobody"), .position(9)])).isEmpty)
            #expect(try await queue.keepsPositions() == true)
            let found = try #require(try await queue.find(.ids([.messageID("bad-field")])).first)
            #expect(found.delivery.body == Array(MixedDeadLetters.missingFieldBody.utf8))
            #expect(found.delivery.properties.correlationID == "corr-9")
            #expect(try await queue.count() == 5)
        }
    }

    /// RabbitMQ 3 puts a message read from a quorum queue and handed back behind the others, so there a
    /// position names another dead letter at each read: an operation naming one is refused before it
    /// reads anything, rather than removing or replaying the wrong dead letter.
    @Test func refusesPositionsOnAQueueWhereReadingMovesThem() async throws {
        try await withDeadLetters(mixed: false, queueType: .quorum) { world, queue in
            for id in ["quorum-a", "quorum-b", "quorum-c"] {
                try await world.publishDeadLetter(.syncCart, Bodies.syncCart(), messageID: id)
            }
            #expect(try await queue.keepsPositions() == false)
            await #expect(throws: DeadLetterQueueError.self) { try await queue.find(.ids([.position(1)])) }
            await #expect(throws: DeadLetterQueueError.self) { try await queue.purge(.ids([.position(2)])) }
            await #expect(throws: DeadLetterQueueError.self) {
                try await queue.replay(.ids([.messageID("quorum-a"), .position(3)])) { _ in }
            }
            #expect(try await queue.count() == 3)

            #expect(try await queue.find(.ids([.messageID("quorum-b")])).map(\.messageID) == ["quorum-b"])
            #expect(try await queue.find(.reason("retries-exhausted")).count == 3)
            #expect(try await queue.purge(.ids([.messageID("quorum-b")])) == 1)
            #expect(Set(try await queue.all().map(\.messageID)) == ["quorum-a", "quorum-c"])
        }
    }

    @Test func replaysTheSelectedAsTheClientSentThemAndLeavesTheRestInPlace() async throws {
        try await withDeadLetters(observesCommands: true) { world, queue in
            var outcomes: [DeadLetterReplayOutcome] = []
            try await queue.replay(.reason("missing-field")) { outcomes.append($0) }
            #expect(outcomes.map(\.kind) == ["replayed 3"])

            // The client's own publish came first; the replay's copy second.
            let copy = try await world.commands.wait(for: 2) { $0.properties.messageID == "bad-field" }[1]
            #expect(copy.routingKey == "order.place")
            #expect(copy.body == Array(MixedDeadLetters.missingFieldBody.utf8))
            #expect(copy.properties.messageID == "bad-field")
            #expect(copy.properties.correlationID == "corr-9")
            #expect(copy.properties.replyTo == world.replyQueue)
            #expect(copy.properties.contentType == "application/json")
            #expect(copy.properties.headers?["traceparent"]?.stringValue == MixedDeadLetters.traceparent)
            #expect(Set((copy.properties.headers ?? [:]).keys).isDisjoint(with: RetryHeaders.all))

            // The body is still missing a field: the worker dead-letters the copy again, at the tail.
            try await queue.waitUntilItHolds(5)
            let letters = try await queue.all()
            var expected = MixedDeadLetters.expected(in: world)
            expected.append(expected.remove(at: 2))
            #expect(letters.map(\.summary) == expected)
        }
    }

    @Test func keepsWhatCannotBeReplayedInItsPlace() async throws {
        try await withDeadLetters { world, queue in
            var outcomes: [DeadLetterReplayOutcome] = []
            try await queue.replay(.ids([.position(2), .position(4)])) { outcomes.append($0) }
            #expect(outcomes.map(\.kind) == ["kept 2", "kept 4"])
            guard case .kept(_, let noID) = outcomes[0], case .kept(_, let unroutable) = outcomes[1] else { return }
            #expect(noID.contains("no message_id"))
            #expect(unroutable.contains("no queue is bound"))
            #expect(try await queue.all().map(\.summary) == MixedDeadLetters.expected(in: world))
        }
    }

    /// Anyone allowed to publish to the dead-letter exchange can write a dead letter: one whose
    /// original routing key cannot be one (over 255 bytes) stopped every replay at it, and one with a
    /// `CC` header was routed to a second queue as well.
    @Test func aForgedDeadLetterIsReplayedLikeAnyCopyTheWorkerPublishesAndStopsNothing() async throws {
        try await withDeadLetters(mixed: false, observesCommands: true) { world, queue in
            let forged = AMQPProperties(
                contentType: "application/json",
                headers: [
                    RetryHeaders.originalRoutingKey: .string(String(repeating: "k", count: 4096)),
                    "CC": .array([.string("order.place")]),
                ],
                deliveryMode: .persistent, messageID: "forged-1")
            try await world.client.publish(
                AMQPMessage(
                    exchange: world.names.deadLetter, routingKey: "cart.sync", properties: forged,
                    body: Array(Bodies.syncCart(cart: "cart-forged", customer: "cust-1").utf8), mandatory: true))
            try await world.publishDeadLetter(.syncCart, Bodies.syncCart(cart: "cart-after", customer: "cust-1"), messageID: "after-1")

            var outcomes: [DeadLetterReplayOutcome] = []
            try await queue.replay(.all) { outcomes.append($0) }

            #expect(outcomes.map(\.kind) == ["replayed 1", "replayed 2"])
            let copy = try await world.commands.wait { $0.properties.messageID == "forged-1" }[0]
            #expect(copy.routingKey == "cart.sync")
            #expect(copy.properties.headers?["CC"] == nil)
            try await world.commands.wait { $0.properties.messageID == "after-1" }
        }
    }

    @Test func aDryRunSaysWhatItWouldDoAndChangesNothing() async throws {
        try await withDeadLetters(observesCommands: true) { world, queue in
            let publishedBefore = world.commands.all.count
            var outcomes: [DeadLetterReplayOutcome] = []
            try await queue.replay(.all, dryRun: true) { outcomes.append($0) }
            #expect(outcomes.map(\.kind) == ["replayed 1", "kept 2", "replayed 3", "replayed 4", "replayed 5"])
            try await Task.sleep(for: .milliseconds(300))
            #expect(world.commands.all.count == publishedBefore)
            #expect(try await queue.all().map(\.summary) == MixedDeadLetters.expected(in: world))
        }
    }

    @Test func purgesByIDByReasonOrAllAndCountsWhatItRemoved() async throws {
        try await withDeadLetters { world, queue in
            var purged: [Int] = []
            let count = try await queue.purge(.ids([.messageID("bad-json"), .position(2)])) { purged.append($0.position) }
            #expect(count == 2)
            #expect(purged == [1, 2])
            #expect(try await queue.all().map(\.summary) == Array(MixedDeadLetters.expected(in: world).dropFirst(2)))

            #expect(try await queue.purge(.reason("retries-exhausted")) == 1)
            #expect(try await queue.all().map(\.messageID) == ["bad-field", "direct-1"])

            #expect(try await queue.purge(.all) == 2)
            #expect(try await queue.count() == 0)
        }
    }

    /// What a replay killed between a confirm and its ack leaves: the command was republished (and
    /// handled), and its dead letter is still there. Replaying it again only publishes its result again.
    @Test func aCommandThatWasInFactHandledOnlyHasItsResultPublishedAgain() async throws {
        try await withDeadLetters(mixed: false) { world, queue in
            try await world.send(.syncCart, Bodies.syncCart(), messageID: "sync-once")
            let first = try #require(try await world.events.wait { $0.properties.correlationID == "sync-once" }.first)
            try await world.publishDeadLetter(.syncCart, Bodies.syncCart(), messageID: "sync-once")

            var outcomes: [DeadLetterReplayOutcome] = []
            try await queue.replay(.all) { outcomes.append($0) }
            #expect(outcomes.map(\.kind) == ["replayed 1"])

            let events = try await world.events.wait(for: 2) { $0.properties.correlationID == "sync-once" }
            #expect(events.map(\.properties.type) == ["cart.synced", "cart.synced"])
            #expect(events[1].properties.messageID == first.properties.messageID)
            #expect(Bodies.json(events[1])["version"] as? Int == 1)
            #expect(try await queue.count() == 0)
        }
    }

    @Test func copiesOfOneCommandAreReplayedOnceAndAllRemoved() async throws {
        try await withDeadLetters(mixed: false, observesCommands: true) { world, queue in
            try await world.publishDeadLetter(.syncCart, Bodies.syncCart(cart: "cart-twice"), messageID: "twice")
            try await world.publishDeadLetter(.syncCart, Bodies.syncCart(cart: "cart-other"), messageID: "other")
            try await world.publishDeadLetter(.syncCart, Bodies.syncCart(cart: "cart-twice"), messageID: "twice")

            var outcomes: [DeadLetterReplayOutcome] = []
            try await queue.replay(.ids([.messageID("twice")])) { outcomes.append($0) }
            #expect(outcomes.map(\.kind) == ["replayed 1", "duplicate 3 of 1"])
            try await world.commands.wait()
            try await Task.sleep(for: .milliseconds(300))
            #expect(world.commands.all.map(\.properties.messageID) == ["twice"])
            #expect(try await queue.all().map(\.messageID) == ["other"])
        }
    }

    /// A catalog import holds SQLite's write lock past every retry of a sync that wants the product it
    /// adds; once the import is done, replaying the dead letter syncs the cart with it.
    @Test func aReplayAfterTheCauseIsFixedSucceedsEndToEnd() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("dead-letters-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("checkout.sqlite").path
        let world = try await TestWorld("fixed", retryDelays: "100ms", collectsDeadLetters: false)
        let worker = try await world.startWorker(["CHECKOUT_DATABASE_URL": "sqlite://\(path)", "CHECKOUT_DATABASE_POOL_SIZE": "2"])
        let queue = DeadLetterQueue(connection: world.client, configuration: world.names)
        try await world.tearingDown(worker) {
            let importInProgress = try await SQLiteConnection.open(storage: .file(path: path))
            _ = try await importInProgress.query("BEGIN IMMEDIATE")
            try await world.send(.syncCart, Bodies.syncCart(cart: "cart-new", items: [("SKU-NEW", 2)]), messageID: "sync-new")
            let unavailable = try #require(
                try await world.events.wait(timeout: .seconds(60)) { $0.properties.correlationID == "sync-new" }.first)
            #expect(Bodies.json(unavailable)["reason"] as? String == "unavailable")
            try await queue.waitUntilItHolds(1)
            _ = try await importInProgress.query("ROLLBACK")
            try await importInProgress.close()
            let newProduct = Product(
                sku: try SKU("SKU-NEW"), name: "New", price: Money(minorUnits: 1250, currency: try CurrencyCode("EUR")), stock: 5,
                isActive: true)
            let store = try await CheckoutStore.open("sqlite://\(path)", poolSize: 1, logger: TestWorld.logger)
            _ = try await store.importCatalog([newProduct])
            await store.close()

            var outcomes: [DeadLetterReplayOutcome] = []
            try await queue.replay(.reason("retries-exhausted")) { outcomes.append($0) }
            #expect(outcomes.map(\.kind) == ["replayed 1"])

            let synced = try await world.events.wait(for: 2) { $0.properties.correlationID == "sync-new" }[1]
            #expect(synced.properties.type == "cart.synced")
            let body = Bodies.json(synced)
            #expect(body["version"] as? Int == 1)
            let items = try #require(body["items"] as? [[String: Any]])
            #expect(items.map { $0["sku"] as? String } == ["SKU-NEW"])
            #expect(items.first?["lineTotal"] as? Int == 2500)
            #expect(try await queue.count() == 0)
        }
    }

    @Test func rendersAListLineAJSONLineAndTheWholeMessage() async throws {
        try await withDeadLetters { world, queue in
            let letters = try await queue.all()
            let now = try #require(letters[4].deadLetteredAt).addingTimeInterval(125)
            let row = DeadLetterTable.row(letters[4], now: now)
            for column in ["5", "order.place", "retries-exhausted", "2", "order-flaky", "2m", "gave up after 2 retries"] {
                #expect(row.contains(column), "\(row)")
            }
            #expect(DeadLetterTable.header.hasPrefix("POS"))

            let later = try #require(letters[1].deadLetteredAt).addingTimeInterval(125)
            let line = try DeadLetterJSONLine(letters[1], now: later).text()
            let json = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(
                Set(json.keys) == ["position", "messageId", "routingKey", "reason", "detail", "retryCount", "deadLetteredAt", "ageSeconds"])
            #expect(json["position"] as? Int == 2)
            #expect(json["messageId"] is NSNull)
            #expect(json["reason"] as? String == "missing-message-id")
            #expect(json["ageSeconds"] as? Int == 125)

            let notJSON = DeadLetterDetails.text(letters[0], queue: queue.name)
            #expect(notJSON.contains("body (9 bytes, not JSON"))
            #expect(notJSON.contains("{not json"))
            #expect(notJSON.contains("x-error-reason: invalid-json"))
            #expect(notJSON.contains("message_id: bad-json"))
            let json3 = DeadLetterDetails.text(letters[2], queue: queue.name)
            #expect(json3.contains("body (\(MixedDeadLetters.missingFieldBody.utf8.count) bytes, JSON):\n{\n  \"cartId\" : \"cart-42\""))
            #expect(json3.contains("correlation_id: corr-9"))
            #expect(json3.contains("traceparent: \(MixedDeadLetters.traceparent)"))
            #expect(TerminalText.escaped([0x7B, 0xFF, 0x0A, 0x5C]) == #"{\xFF\n\\"#)
        }
    }

    /// Anyone allowed to publish to the dead-letter exchange writes its headers: values no worker writes
    /// are shown as unknown or as they are, never as a number they are not.
    @Test func rendersHeadersNoWorkerWritesAsTheyAre() async throws {
        try await withDeadLetters(mixed: false) { world, queue in
            var nested = AMQPFieldValue.string("bottom")
            for _ in 0..<40 { nested = .table(["in": nested]) }
            let headers: AMQPFieldTable = [
                RetryHeaders.errorReason: "retries-exhausted", RetryHeaders.retryCount: .int64(.min),
                "price": .decimal(scale: 255, value: 12345), "small": .decimal(scale: 2, value: 5), "deep": nested,
            ]
            try await world.client.publish(
                AMQPMessage(
                    exchange: world.names.deadLetter, routingKey: "cart.sync",
                    properties: AMQPProperties(headers: headers, messageID: "forged"), body: Array("{}".utf8)))
            let letter = try #require(try await queue.all().first)

            #expect(letter.retryCount == nil)
            let columns = DeadLetterTable.row(letter, now: Date()).split(separator: " ")
            #expect(columns[2] == "retries-exhausted" && columns[3] == "-", "\(columns)")
            let json = try #require(
                try JSONSerialization.jsonObject(with: Data(try DeadLetterJSONLine(letter, now: Date()).text().utf8)) as? [String: Any])
            #expect(json["retryCount"] is NSNull)
            let details = DeadLetterDetails.text(letter, queue: queue.name)
            #expect(details.contains("price: 0." + String(repeating: "0", count: 250) + "12345"), "\(details)")
            #expect(details.contains("small: 0.05"))
            #expect(details.contains("headers (tables and arrays nested over 32 deep were not read, and show as null):"))
        }
    }
}

extension DeadLetterQueueTests {
    /// A dead letter's text is a client's: an escape sequence in it would move the operator's cursor over
    /// earlier rows or set the clipboard, and a bidirectional override reorder what a row shows. Every
    /// such character is printed as an escape, in the list, the details and the replay's lines.
    @Test func aClientsControlAndFormattingCharactersAreShownEscaped() async throws {
        try await withDeadLetters(mixed: false) { world, queue in
            let hostile = "\u{1B}[1A\u{1B}[2K\u{9B}2J\u{202E}\u{200B}\u{2028}\u{7F}"
            let headers: AMQPFieldTable = [
                RetryHeaders.errorReason: .string("retries-exhausted\(hostile)"), RetryHeaders.errorDetail: .string(hostile),
                "x\u{1B}]52;c;AAAA\u{07}": .string(hostile), "nested": .table(["k\u{9B}": .string(hostile)]),
            ]
            var properties = AMQPProperties(headers: headers, messageID: "id\(hostile)")
            properties.correlationID = hostile
            try await world.client.publish(
                AMQPMessage(
                    exchange: world.names.deadLetter, routingKey: "cart.sync\(hostile)", properties: properties,
                    body: Array("{\"cartId\":\"\(hostile)\"}".utf8)))
            let letter = try #require(try await queue.all().first)

            let shown = [
                DeadLetterTable.row(letter, now: Date()), DeadLettersReplaySubcommand.describe(letter),
                DeadLetterDetails.text(letter, queue: queue.name),
            ]
            for text in shown {
                let acting = text.unicodeScalars.filter { scalar in
                    scalar != "\n" && [.control, .format, .lineSeparator].contains(scalar.properties.generalCategory)
                }
                #expect(acting.isEmpty, "\(acting.map { String($0.value, radix: 16) }) in \(text)")
            }
            #expect(shown[0].contains(#"id\x1B[1A\x1B[2K\x9B2J\u{202E}\u{200B}\u{2028}\x7F"#), "\(shown[0])")
            #expect(shown[2].contains(#"x\x1B]52;c;AAAA\x07: "#), "\(shown[2])")
            // A client's backslash is doubled, so that its text cannot pass for an escape.
            #expect(TerminalText.escaped(#"id\x1B"#) == #"id\\x1B"#)
        }
    }
}

extension DeadLetterReplayOutcome {
    /// `replayed 3`, `duplicate 5 of 3`, `kept 2`: what was done to which position.
    var kind: String {
        switch self {
        case .replayed(let letter): "replayed \(letter.position)"
        case .duplicate(let letter, let original): "duplicate \(letter.position) of \(original)"
        case .kept(let letter, _): "kept \(letter.position)"
        }
    }
}

/// Runs `body` with a world whose dead letters stay in their queue, the mixed dead letters made by
/// a running worker (unless `mixed` is false), and the queue's tools.
private func withDeadLetters(
    mixed: Bool = true,
    queueType: QueueType = .classic,
    observesCommands: Bool = false,
    _ body: (TestWorld, DeadLetterQueue) async throws -> Void
) async throws {
    let world = try await TestWorld("dead-letters", queueType: queueType, collectsDeadLetters: false, observesCommands: observesCommands)
    let worker = try await world.startWorker()
    let queue = DeadLetterQueue(connection: world.client, configuration: world.names)
    try await world.tearingDown(worker) {
        if mixed { try await MixedDeadLetters.make(in: world) }
        try await body(world, queue)
    }
}
