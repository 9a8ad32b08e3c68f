import CheckoutMessaging
import Foundation
import RabbitMQ
import Testing

/// What a client controls besides the body (properties, headers, ids it re-uses) never takes the
/// worker down, leaks another command's outcome, or loses a message. Against the real broker.
@Suite struct HostileInputTests {
    @Test func aTimestampAtTheEndOfItsRangeIsDeadLetteredAsItCameAndTheWorkerKeepsAnswering() async throws {
        try await withWorld { world in
            let properties = AMQPProperties(
                contentType: "application/json", messageID: "ts-1", timestamp: AMQPTimestamp(secondsSince1970: .max))
            try await world.client.publish(
                AMQPMessage(
                    exchange: world.names.commandsExchange, routingKey: "cart.sync", properties: properties,
                    body: Array("not json".utf8), mandatory: true))

            let dead = try #require(try await world.deadLetters.wait { $0.properties.messageID == "ts-1" }.first)
            #expect(dead.properties.timestamp == AMQPTimestamp(secondsSince1970: .max))
            #expect(dead.properties.headers?[RetryHeaders.errorReason]?.stringValue == "invalid-json")
            try await expectStillAnswering(world)
        }
    }

    @Test func aCommandWithAnExtremeTimestampIsHandled() async throws {
        try await withWorld { world in
            let properties = AMQPProperties(
                contentType: "application/json", messageID: "ts-2", timestamp: AMQPTimestamp(secondsSince1970: .max))
            try await world.client.publish(
                AMQPMessage(
                    exchange: world.names.commandsExchange, routingKey: "cart.sync", properties: properties,
                    body: Array(Bodies.syncCart().utf8), mandatory: true))

            let event = try #require(try await world.events.wait { $0.properties.correlationID == "ts-2" }.first)
            #expect(event.properties.type == "cart.synced")
        }
    }

    @Test func headersNestedTooDeepAreDeadLetteredCutWithAReason() async throws {
        try await withWorld { world in
            var deep = AMQPFieldValue.string("bottom")
            for _ in 0..<100 { deep = .table(["t": deep]) }

            try await world.send(.syncCart, Bodies.syncCart(), messageID: "deep-1", headers: ["deep": deep])

            let dead = try #require(try await world.deadLetters.wait { $0.properties.messageID == "deep-1" }.first)
            #expect(dead.properties.headers?[RetryHeaders.errorReason]?.stringValue == "headers-too-deep")
            #expect(dead.properties.headers?["deep"] != nil)
            try await expectStillAnswering(world)
        }
    }

    @Test func clientHeadersThatLeaveNoRoomForTheDeadLetterHeadersAreDroppedAndNamed() async throws {
        try await withWorld { world in
            // Within what a command may take (4 KiB less than a frame), but not with the dead letter's headers too.
            let room = world.client.maximumPropertiesByteCount - 4096
            let headers: AMQPFieldTable = ["pad": .bytes(Array(repeating: 1, count: room - 120)), "x-mine": "kept if it fits"]

            try await world.sendRaw("cart.sync", Array("{".utf8), messageID: "full-1", headers: headers)

            let dead = try #require(try await world.deadLetters.wait { $0.properties.messageID == "full-1" }.first)
            #expect(dead.properties.headers?[RetryHeaders.errorReason]?.stringValue == "invalid-json")
            #expect(dead.properties.headers?["pad"] == nil)
            let detail = try #require(dead.properties.headers?[RetryHeaders.errorDetail]?.stringValue)
            #expect(detail.contains("headers dropped to fit the frame: pad, x-mine"))
            try await expectStillAnswering(world)
        }
    }

    /// A command whose headers nearly fill a frame could not be read again once the broker added its own
    /// (`x-death` back from a retry queue, a quorum queue's `x-delivery-count`): the connection would
    /// drop at every redelivery, on every worker in turn. It is dead-lettered before anything is done.
    @Test func aCommandWhoseHeadersNearlyFillAFrameIsDeadLetteredBeforeItCanBecomeUnreadable() async throws {
        try await withWorld { world in
            try await world.send(.syncCart, Bodies.syncCart(), messageID: "full-sync")
            try await world.events.wait { $0.properties.correlationID == "full-sync" }
            let command = AMQPProperties(
                contentType: "application/json", deliveryMode: .persistent, correlationID: "full-order", messageID: "full-order")
            let room = world.client.maximumPropertiesByteCount - command.encodedByteCount
            let headers: AMQPFieldTable = ["pad": .bytes(Array(repeating: 1, count: room - 250))]

            try await world.send(
                .placeOrder, Bodies.placeOrder(token: "tok_processingError"), messageID: "full-order", correlationID: "full-order",
                headers: headers)

            let dead = try #require(try await world.deadLetters.wait { $0.properties.messageID == "full-order" }.first)
            #expect(dead.properties.headers?[RetryHeaders.errorReason]?.stringValue == "headers-too-large")
            #expect(dead.properties.headers?["pad"] == nil)
            try await expectStillAnswering(world)
            #expect(!world.events.all.contains { $0.properties.correlationID == "full-order" })
        }
    }

    /// A client that may declare a queue can have the broker hand the worker more properties than any
    /// publisher may send: its messages expire into the commands exchange, and dead-lettering keeps a
    /// `CC` header of many long routing keys and copies them again into `x-death`. A frame that large
    /// dropped the connection of every worker it went to, for ever; it is read and dead-lettered.
    @Test func aCommandTheBrokerInflatedPastAFrameIsDeadLetteredNotAConnectionDropped() async throws {
        try await withWorld { world in
            let expiring = "test.expiring.\(UUID().uuidString.prefix(8))"
            try await world.client.declare(
                AMQPTopology(
                    exchanges: [.init(name: expiring, durable: false)],
                    queues: [
                        .init(
                            name: expiring, durable: false,
                            arguments: ["x-message-ttl": .int32(0), "x-dead-letter-exchange": .string(world.names.commandsExchange)])
                    ],
                    bindings: [.init(queue: expiring, exchange: expiring, routingKey: "cart.sync")]))
            let keys = (0..<400).map { AMQPFieldValue.string(String(format: "k%03d", $0) + String(repeating: "x", count: 250)) }
            let properties = AMQPProperties(contentType: "application/json", headers: ["CC": .array(keys)], messageID: "inflated-1")
            try await world.client.publish(
                AMQPMessage(exchange: expiring, routingKey: "cart.sync", properties: properties, body: Array(Bodies.syncCart().utf8)))

            let dead = try? await world.deadLetters.wait { $0.properties.messageID == "inflated-1" }.first
            _ = try? await world.client.deleteQueue(expiring)
            try? await world.client.deleteExchange(expiring)
            #expect(dead?.properties.headers?[RetryHeaders.errorReason]?.stringValue == "headers-too-large")
            try await expectStillAnswering(world)
        }
    }

    /// RabbitMQ reads `x-death` back when a retry queue hands a copy on; one a client forged made the
    /// retry queue crash, and the copies in it were lost. The worker's copies leave it out.
    @Test func aForgedDeathHistoryDoesNotReachTheRetryQueues() async throws {
        try await withWorld { world in
            try await world.send(.syncCart, Bodies.syncCart(), messageID: "sync-dead")
            try await world.events.wait { $0.properties.correlationID == "sync-dead" }

            try await world.send(
                .placeOrder, Bodies.placeOrder(token: "tok_processingError"), messageID: "order-forged",
                headers: ["x-death": .array([.string("forged")]), "x-first-death-queue": "elsewhere", "client-header": "kept"])

            let rejected = try #require(try await world.events.wait { $0.properties.correlationID == "order-forged" }.first)
            #expect(Bodies.json(rejected)["reason"] as? String == "payment-unavailable")
            let dead = try #require(try await world.deadLetters.wait { $0.properties.messageID == "order-forged" }.first)
            #expect(dead.properties.headers?[RetryHeaders.errorReason]?.stringValue == "retries-exhausted")
            #expect(dead.properties.headers?["x-first-death-queue"] == nil)
            #expect(dead.properties.headers?["client-header"]?.stringValue == "kept")
            try await expectStillAnswering(world)
        }
    }

    @Test func aBodyOverTheLimitIsDeadLetteredWithItsFirstBytesAndItsSize() async throws {
        try await withWorld { world in
            let body = Array(repeating: UInt8(ascii: "["), count: 1 << 20)

            try await world.sendRaw("cart.sync", body, messageID: "huge-1")

            let dead = try #require(try await world.deadLetters.wait { $0.properties.messageID == "huge-1" }.first)
            #expect(dead.properties.headers?[RetryHeaders.errorReason]?.stringValue == "body-too-large")
            #expect(dead.body == Array(body.prefix(world.names.maximumBodyBytes)))
            #expect(dead.properties.headers?[RetryHeaders.errorDetail]?.stringValue?.contains("\(1 << 20) bytes") == true)
        }
    }

    /// A direct reply-to name RabbitMQ cannot decode makes it close the connection the reply is published
    /// on; the worker would publish it again at every redelivery, on every replica in turn.
    @Test(arguments: ["sync-cart", "retry", "dead-letter", "direct-reply-to"])
    func aReplyToNamingOneOfTheWorkersOwnQueuesOrADirectReplyToIsDeadLetteredAndAnswersNothing(queue: String) async throws {
        try await withWorld { world in
            let replyTo =
                switch queue {
                case "sync-cart": world.names.syncCartQueue
                case "retry": world.names.retryQueue(for: .placeOrder, retry: 0)
                case "dead-letter": world.names.deadLetter
                default: "amq.rabbitmq.reply-to.abc.def"
                }

            try await world.send(.syncCart, Bodies.syncCart(), messageID: "reply-1", replyTo: replyTo)

            let dead = try #require(try await world.deadLetters.wait { $0.properties.messageID == "reply-1" }.first)
            #expect(dead.properties.headers?[RetryHeaders.errorReason]?.stringValue == "invalid-reply-to")
            try await expectStillAnswering(world)
            #expect(world.events.about("reply-1").isEmpty)
        }
    }

    @Test func aReusedMessageIDWithAnotherBodyIsRejectedWithNothingOfTheFirstOutcome() async throws {
        try await withWorld { world in
            try await world.send(.syncCart, Bodies.syncCart(customer: "cust-7", items: [("SKU-RED-M", 2)]), messageID: "dup-1")
            try await world.events.wait { $0.properties.correlationID == "dup-1" }

            try await world.send(
                .syncCart, Bodies.syncCart(customer: "cust-8", items: [("SKU-BLUE-L", 1)]), messageID: "dup-1",
                correlationID: "dup-1-again", replyTo: world.replyQueue)

            let reply = try #require(try await world.replies.wait { $0.properties.correlationID == "dup-1-again" }.first)
            #expect(reply.properties.type == "cart.sync-rejected")
            let body = Bodies.json(reply)
            #expect(body["reason"] as? String == "duplicate-message-id")
            #expect(body["items"] == nil && body["customerId"] == nil && body["version"] == nil)

            try await world.send(
                .syncCart, Bodies.syncCart(customer: "cust-7", items: [("SKU-RED-M", 2)]), messageID: "dup-1", correlationID: "dup-1-resent"
            )
            let replayed = try #require(try await world.events.wait { $0.properties.correlationID == "dup-1-resent" }.first)
            #expect(replayed.properties.type == "cart.synced")
        }
    }

    @Test func wrongTypedHeadersTheWorkerReadsDoNotStopTheCommand() async throws {
        try await withWorld { world in
            let headers: AMQPFieldTable = [
                RetryHeaders.retryCount: .string("many"),
                RetryHeaders.originalRoutingKey: .bytes([0xFF, 0xFE]),
                "traceparent": .int64(-1),
                // A NaN double never reaches a worker: RabbitMQ closes the publisher's connection (INTERNAL_ERROR).
                "tracestate": .table(["a": .double(-.greatestFiniteMagnitude)]),
            ]

            try await world.send(.syncCart, Bodies.syncCart(), messageID: "typed-1", headers: headers)

            let event = try #require(try await world.events.wait { $0.properties.correlationID == "typed-1" }.first)
            #expect(event.properties.type == "cart.synced")
        }
    }

    /// Only a retry the worker signed carries the routing key a command came with: a client's
    /// `x-original-routing-key`, another command's or longer than a routing key can be, changes nothing.
    @Test(arguments: ["order.place", String(repeating: "A", count: 4096)])
    func aClientsOriginalRoutingKeyHeaderIsNotBelieved(header: String) async throws {
        try await withWorld { world in
            let headers: AMQPFieldTable = [RetryHeaders.originalRoutingKey: .string(header)]

            try await world.sendRaw("cart.sync", Array(Bodies.syncCart().utf8), messageID: "forged-key-1", headers: headers)

            let event = try #require(try await world.events.wait { $0.properties.correlationID == "forged-key-1" }.first)
            #expect(event.properties.type == "cart.synced")
            #expect(world.deadLetters.all.isEmpty)
        }
    }

    @Test func aDeletedCommandQueueIsDeclaredAgainAndConsumed() async throws {
        try await withWorld { world in
            _ = try await world.client.deleteQueue(world.names.syncCartQueue)

            let deadline = ContinuousClock.now + .seconds(20)
            var routed = false
            while !routed, ContinuousClock.now < deadline {
                do {
                    try await world.send(.syncCart, Bodies.syncCart(), messageID: "after-delete")
                    routed = true
                } catch let error as AMQPError where error.code == .unroutable {
                    try await Task.sleep(for: .milliseconds(100))
                }
            }

            #expect(routed)
            try await world.events.wait { $0.properties.correlationID == "after-delete" }
        }
    }

    /// A valid command sent after the hostile one is answered: the worker is still up and consuming.
    private func expectStillAnswering(_ world: TestWorld) async throws {
        let id = "alive-\(UUID().uuidString.prefix(8))"
        try await world.send(.syncCart, Bodies.syncCart(cart: "cart-alive"), messageID: id)
        try await world.events.wait { $0.properties.correlationID == id }
    }
}
