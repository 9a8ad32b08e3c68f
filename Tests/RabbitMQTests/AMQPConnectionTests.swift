import Foundation
import RabbitMQ
import Testing

/// Against the real RabbitMQ node of scripts/test.sh.
@Suite struct AMQPConnectionTests {
    @Test func roundTripKeepsPropertiesAndNestedHeaders() async throws {
        let connection = try await TestBroker.connect()
        defer { Task { await connection.close() } }
        let queue = try await TestBroker.temporaryQueue("roundtrip", on: connection)
        let properties = AMQPProperties(
            contentType: "application/json",
            headers: [
                "traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
                "x-retry-count": .int32(2),
                "nested": .table(["flag": true, "list": .array([.string("a"), .int64(-5), .double(1.5)])]),
                "raw": .bytes([0, 255, 7]),
            ],
            deliveryMode: .persistent,
            priority: 3,
            correlationID: "corr-1",
            replyTo: "reply.queue",
            expiration: "60000",
            messageID: "msg-1",
            timestamp: AMQPTimestamp(secondsSince1970: 1_790_000_000),
            type: "cart.sync",
            appID: "tests"
        )
        try await connection.publish(AMQPMessage(exchange: "", routingKey: queue, properties: properties, body: "{\"a\":1}".bytes))

        let consumer = try await connection.consume(queue: queue, prefetch: 10)
        var iterator = consumer.makeAsyncIterator()
        let delivery = try #require(await iterator.next())
        delivery.ack()

        #expect(delivery.body == "{\"a\":1}".bytes)
        #expect(delivery.routingKey == queue)
        #expect(delivery.redelivered == false)
        #expect(delivery.properties == properties)
        _ = try await connection.deleteQueue(queue)
    }

    // `ss` is Linux's.
    #if os(Linux)
    /// With heartbeats off, only TCP keepalive notices a broker that vanished without a word: the socket
    /// probes after 30 s of silence, not the kernel's 2 hours, as `ss` shows its keepalive timer, here while
    /// a silent peer holds the handshake.
    @Test func probesASilentPeerWithinAMinuteEvenWithHeartbeatsOff() async throws {
        let peer = try SilentListener()
        let configuration = try TestBroker.configuration(urls: "amqp://guest:guest@127.0.0.1:\(peer.port)/%2F", heartbeatSeconds: 0)
        let connecting = Task { try await TestBroker.connect(configuration) }

        // librabbitmq turns keepalive on with the kernel's timings, a first probe after 2 hours
        // (`timer:(keepalive,119min,0)`), before it connects; the worker's own come a moment after.
        var sockets = ""
        for _ in 0..<100 where sockets.firstMatch(of: /timer:\(keepalive,\d+sec,/) == nil {
            try await Task.sleep(for: .milliseconds(50))
            sockets = try TestBroker.output(of: "/usr/bin/ss", "-tnoH", "dst", "127.0.0.1:\(peer.port)")
        }
        let timer = try #require(sockets.firstMatch(of: /timer:\(keepalive,(\d+)sec,/), "\(sockets)")
        #expect(Int(timer.1)! <= 30)
        connecting.cancel()
        _ = await connecting.result
    }
    #endif

    @Test func manyPublishesAwaitTheirConfirmsAtOnce() async throws {
        let connection = try await TestBroker.connect()
        defer { Task { await connection.close() } }
        let queue = try await TestBroker.temporaryQueue("confirms", on: connection)
        let count = 2_000

        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<count {
                group.addTask {
                    try await connection.publish(
                        AMQPMessage(
                            exchange: "", routingKey: queue,
                            properties: AMQPProperties(messageID: "m\(index)"), body: [UInt8(index % 256)]))
                }
            }
            try await group.waitForAll()
        }

        // Every confirmed message is in the queue: purge reports exactly how many the broker holds.
        #expect(try await connection.purgeQueue(queue) == count)
        // Publishes submitted together left together, not one write (three, in librabbitmq) each.
        #expect(connection.statistics.publishes == count)
        #expect(connection.statistics.publishWrites < count / 2, "publish writes: \(connection.statistics.publishWrites)")
        _ = try await connection.deleteQueue(queue)
    }

    @Test func aMessageWhosePropertiesDoNotFitInAFrameFailsAloneAndTheConnectionStaysUsable() async throws {
        let connection = try await TestBroker.connect()
        defer { Task { await connection.close() } }
        let queue = try await TestBroker.temporaryQueue("oversized-headers", on: connection)
        let oversized = AMQPProperties(headers: ["blob": .string(String(repeating: "x", count: 200_000))])

        async let small = connection.publish(AMQPMessage(exchange: "", routingKey: queue, body: "before".bytes))
        await #expect {
            try await connection.publish(AMQPMessage(exchange: "", routingKey: queue, properties: oversized, body: "too big".bytes))
        } throws: { error in
            (error as? AMQPError)?.code == .protocolError && (error as? AMQPError)?.isRetryable == false
        }
        try await small
        try await connection.publish(AMQPMessage(exchange: "", routingKey: queue, body: "after".bytes))

        #expect(connection.statistics.reconnects == 0)
        #expect(try await connection.deleteQueue(queue) == 2)
    }

    @Test func aNackedDeliveryIsRedelivered() async throws {
        let connection = try await TestBroker.connect()
        defer { Task { await connection.close() } }
        let queue = try await TestBroker.temporaryQueue("nack", on: connection)
        try await connection.publish(AMQPMessage(exchange: "", routingKey: queue, body: "again".bytes))

        let consumer = try await connection.consume(queue: queue, prefetch: 1)
        var iterator = consumer.makeAsyncIterator()
        let first = try #require(await iterator.next())
        #expect(!first.redelivered)
        first.nack(requeue: true)

        let second = try #require(await iterator.next())
        #expect(second.redelivered)
        #expect(second.body == "again".bytes)
        second.ack()
        _ = try await connection.deleteQueue(queue)
    }

    @Test func prefetchBoundsTheUnsettledDeliveries() async throws {
        let connection = try await TestBroker.connect()
        defer { Task { await connection.close() } }
        let queue = try await TestBroker.temporaryQueue("prefetch", on: connection)
        for index in 0..<20 {
            try await connection.publish(AMQPMessage(exchange: "", routingKey: queue, body: [UInt8(index)]))
        }

        let collector = DeliveryCollector()
        await collector.start(try await connection.consume(queue: queue, prefetch: 5), ack: false)
        #expect(try await eventually { await collector.count == 5 })
        try await Task.sleep(for: .milliseconds(300))
        #expect(await collector.count == 5, "the broker must not send more than prefetch unacked deliveries")

        for delivery in await collector.deliveries { delivery.ack() }
        #expect(try await eventually { await collector.count == 10 })
        await collector.stop()
        _ = try await connection.deleteQueue(queue)
    }

    @Test func anUnroutableMandatoryPublishIsReported() async throws {
        let connection = try await TestBroker.connect()
        defer { Task { await connection.close() } }
        let exchange = TestBroker.uniqueName("unroutable")
        try await connection.declare(AMQPTopology(exchanges: [.init(name: exchange, type: "direct", durable: false, autoDelete: true)]))

        await #expect {
            try await connection.publish(AMQPMessage(exchange: exchange, routingKey: "nobody", body: "lost?".bytes, mandatory: true))
        } throws: { error in
            (error as? AMQPError)?.code == .unroutable && (error as? AMQPError)?.replyCode == 312
        }
        // A non-mandatory publish to the same place is confirmed (and dropped by the broker, as AMQP says).
        try await connection.publish(AMQPMessage(exchange: exchange, routingKey: "nobody", body: "dropped".bytes))
        try await connection.deleteExchange(exchange)
    }

    /// Bodies are cut into frames of the size negotiated with the broker, on TLS too, where librabbitmq
    /// would cut them at its own, larger, reading size.
    @Test(arguments: [false, true])
    func aLargeBodySpanningManyFramesArrivesWhole(tls: Bool) async throws {
        var configuration = try TestBroker.configuration(urls: tls ? TestBroker.tlsURL : TestBroker.url)
        configuration.tls.caFile = TestBroker.caFile
        let connection = try await TestBroker.connect(configuration)
        defer { Task { await connection.close() } }
        let queue = try await TestBroker.temporaryQueue("large", on: connection)
        let body = (0..<1_500_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try await connection.publish(AMQPMessage(exchange: "", routingKey: queue, body: body))

        let consumer = try await connection.consume(queue: queue, prefetch: 1)
        var iterator = consumer.makeAsyncIterator()
        let delivery = try #require(await iterator.next())
        delivery.ack()
        #expect(delivery.body.count == body.count)
        #expect(delivery.body == body)
        #expect(connection.statistics.reconnects == 0)
        _ = try await connection.deleteQueue(queue)
    }

    @Test func acksAreCoalescedIntoFewerFrames() async throws {
        let connection = try await TestBroker.connect()
        defer { Task { await connection.close() } }
        let queue = try await TestBroker.temporaryQueue("coalesce", on: connection)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<500 {
                group.addTask { try await connection.publish(AMQPMessage(exchange: "", routingKey: queue, body: [UInt8(index % 256)])) }
            }
            try await group.waitForAll()
        }

        let collector = DeliveryCollector()
        await collector.start(try await connection.consume(queue: queue, prefetch: 300), ack: true)
        #expect(try await eventually { await collector.count == 500 })
        #expect(try await eventually { try await connection.purgeQueue(queue) == 0 && connection.statistics.ackFrames > 0 })
        #expect(connection.statistics.ackFrames < 500, "acks were sent one frame per delivery: \(connection.statistics.ackFrames)")
        await collector.stop()
        // Everything was acked: after the consumer is gone nothing comes back to the queue.
        try await Task.sleep(for: .milliseconds(300))
        #expect(try await connection.deleteQueue(queue) == 0)
    }

    @Test func deliveriesAConsumerNeverTookGoBackToTheQueueWhenItIsDropped() async throws {
        let connection = try await TestBroker.connect()
        defer { Task { await connection.close() } }
        let queue = try await TestBroker.temporaryQueue("dropped", on: connection)
        for index in 0..<5 {
            try await connection.publish(AMQPMessage(exchange: "", routingKey: queue, body: [UInt8(index)]))
        }
        do {
            let consumer = try await connection.consume(queue: queue, prefetch: 10)
            #expect(try await eventually { connection.statistics.deliveries == 5 })
            _ = consumer.queue
        }

        // Back in the queue while the connection stays open, not held until the channel or connection closes.
        var purged = 0
        #expect(
            try await eventually {
                purged += try await connection.purgeQueue(queue)
                return purged == 5
            })
        #expect(connection.statistics.reconnects == 0)
    }

    @Test func aChannelErrorIsReportedAndTheConnectionStaysUsable() async throws {
        let connection = try await TestBroker.connect()
        defer { Task { await connection.close() } }
        let queue = try await TestBroker.temporaryQueue("mismatch", on: connection)

        await #expect {
            try await connection.declare(AMQPTopology(queues: [.init(name: queue, durable: true)]))
        } throws: { error in
            guard let error = error as? AMQPError else { return false }
            return error.code == .channelClosed && error.replyCode == 406 && error.message.contains("PRECONDITION_FAILED")
        }
        await #expect {
            _ = try await connection.consume(queue: TestBroker.uniqueName("missing"), prefetch: 1)
        } throws: { error in
            (error as? AMQPError)?.replyCode == 404
        }

        try await connection.publish(AMQPMessage(exchange: "", routingKey: queue, body: "still fine".bytes))
        #expect(try await connection.deleteQueue(queue) == 1)
    }

    @Test func aCancelledConsumerStillSettlesWhatIsInFlight() async throws {
        let connection = try await TestBroker.connect()
        defer { Task { await connection.close() } }
        let queue = try await TestBroker.temporaryQueue("cancel", on: connection)
        for index in 0..<3 { try await connection.publish(AMQPMessage(exchange: "", routingKey: queue, body: [UInt8(index)])) }

        let collector = DeliveryCollector()
        await collector.start(try await connection.consume(queue: queue, prefetch: 10), ack: false)
        #expect(try await eventually { await collector.count == 3 })
        await collector.stop()

        // Graceful drain: after the cancel, work in flight is still acked on its channel...
        let inFlight = await collector.deliveries
        inFlight[0].ack()
        inFlight[1].ack()
        inFlight[2].reject(requeue: true)

        // ...and only the rejected one comes back, to the next consumer.
        let collector2 = DeliveryCollector()
        await collector2.start(try await connection.consume(queue: queue, prefetch: 10), ack: true)
        #expect(try await eventually { await collector2.count == 1 })
        try await Task.sleep(for: .milliseconds(300))
        #expect(await collector2.count == 1)
        #expect(await collector2.deliveries.first?.body == [2])
        #expect(await collector2.deliveries.first?.redelivered == true)
        await collector2.stop()
        _ = try await connection.deleteQueue(queue)
    }

    @Test func wrongCredentialsFailWithAClearError() async throws {
        let url = TestBroker.url.replacingOccurrences(of: "guest:guest@", with: "guest:wrong@")
        await #expect {
            _ = try await TestBroker.connect(try TestBroker.configuration(urls: url))
        } throws: { error in
            guard let error = error as? AMQPError else { return false }
            return error.code == .authenticationFailed && error.message.contains("ACCESS_REFUSED") && !error.message.contains("wrong")
        }
    }

    @Test func theNextClusterNodeIsTriedWhenOneIsDown() async throws {
        let connection = try await TestBroker.connect(
            try TestBroker.configuration(urls: "amqp://guest:guest@127.0.0.1:1/%2F,\(TestBroker.url)"))
        #expect(connection.isConnected)
        await connection.close()

        await #expect {
            _ = try await TestBroker.connect(try TestBroker.configuration(urls: "amqp://guest:guest@127.0.0.1:1/%2F"))
        } throws: { error in
            (error as? AMQPError)?.code == .connectionFailed && "\(error)".contains("127.0.0.1:1")
        }
    }

    /// What readiness and liveness read: a task that blocks the connection's thread shows as a stall.
    @Test func saysHowLongItsThreadHasBeenHeld() async throws {
        let connection = try await TestBroker.connect()
        #expect(connection.stalledFor < .seconds(2))

        let holding = Task(executorPreference: connection.executor) { usleep(3_000_000) }
        var longest = Duration.zero
        let deadline = ContinuousClock.now + .seconds(10)
        while longest < .milliseconds(2500), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            longest = max(longest, connection.stalledFor)
        }
        await holding.value

        #expect(longest >= .milliseconds(2500), "the longest stall seen was \(longest)")
        // The pass that ran the task ends after at most one poll interval (a second) of waiting.
        try await Task.sleep(for: .milliseconds(1500))
        #expect(connection.stalledFor < .seconds(2))
        await connection.close()
    }

    @Test func operationsAfterCloseFailInsteadOfHanging() async throws {
        let connection = try await TestBroker.connect()
        await connection.close()
        await #expect {
            try await connection.publish(AMQPMessage(exchange: "", routingKey: "anything", body: []))
        } throws: { error in
            (error as? AMQPError)?.code == .closed
        }
    }

    @Test func publishesRacingACloseAllReturnNoneHangs() async throws {
        let connection = try await TestBroker.connect()
        let queue = try await TestBroker.temporaryQueue("close-race", on: connection)

        let outcomes = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<2_000 {
                group.addTask {
                    do {
                        try await connection.publish(AMQPMessage(exchange: "", routingKey: queue, body: [UInt8(index % 256)]))
                        return "confirmed"
                    } catch let error as AMQPError where error.code == .closed {
                        return "closed"
                    } catch {
                        return "\(error)"
                    }
                }
                if index == 1_000 {
                    group.addTask {
                        await connection.close()
                        return "closed the connection"
                    }
                }
            }
            return try await group.reduce(into: [String: Int]()) { $0[$1, default: 0] += 1 }
        }

        #expect(outcomes["confirmed", default: 0] + outcomes["closed", default: 0] == 2_000, "outcomes: \(outcomes)")
        #expect(outcomes["closed", default: 0] > 0)
    }

    @Test func tasksPreferringTheConnectionsExecutorRunTheConsumePublishAckLoopOnItsThread() async throws {
        let connection = try await TestBroker.connect()
        defer { Task { await connection.close() } }
        let commands = try await TestBroker.temporaryQueue("executor-in", on: connection)
        let events = try await TestBroker.temporaryQueue("executor-out", on: connection)
        let count = 500
        for index in 0..<count {
            try await connection.publish(AMQPMessage(exchange: "", routingKey: commands, body: [UInt8(index % 256)]))
        }

        let threads = try await withTaskExecutorPreference(connection.executor) {
            let consumer = try await connection.consume(queue: commands, prefetch: 100)
            return try await withThrowingTaskGroup(of: [String].self) { group in
                var received = 0
                for await delivery in consumer {
                    received += 1
                    group.addTask {
                        let before = Self.threadName()
                        try await connection.publish(AMQPMessage(exchange: "", routingKey: events, body: delivery.body))
                        delivery.ack()
                        return [before, Self.threadName()]
                    }
                    if received == count { break }
                }
                return try await group.reduce(into: Set<String>()) { $0.formUnion($1) }
            }
        }

        #expect(threads == ["amqp-driver"])
        #expect(try await connection.purgeQueue(events) == count)
        #expect(try await connection.purgeQueue(commands) == 0)
    }

    @Test func aTaskOnTheExecutorOfAClosedConnectionStillRuns() async throws {
        let connection = try await TestBroker.connect()
        await connection.close()

        let answer = await Task(executorPreference: connection.executor) { () async -> Int in
            await Task.yield()
            return 42
        }.value

        #expect(answer == 42)
    }

    /// The OS name of the thread running the caller (a sync function: async code may not ask for its thread).
    private static func threadName() -> String {
        let name = try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)
        return name?.trimmingCharacters(in: .newlines) ?? "unknown"
    }
}
