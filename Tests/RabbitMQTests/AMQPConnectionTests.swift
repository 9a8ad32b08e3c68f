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
            timestamp: Date(timeIntervalSince1970: 1_790_000_000),
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

    @Test func manyPublishesAwaitTheirConfirmsAtOnce() async throws {
        let connection = try await TestBroker.connect()
        defer { Task { await connection.close() } }
        let queue = try await TestBroker.temporaryQueue("confirms", on: connection)
        let count = 2_000

        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<count {
                group.addTask {
                    try await connection.publish(AMQPMessage(exchange: "", routingKey: queue,
                                                             properties: AMQPProperties(messageID: "m\(index)"), body: [UInt8(index % 256)]))
                }
            }
            try await group.waitForAll()
        }

        // Every confirmed message is in the queue: purge reports exactly how many the broker holds.
        #expect(try await connection.purgeQueue(queue) == count)
        _ = try await connection.deleteQueue(queue)
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

    @Test func aLargeBodySpanningManyFramesArrivesWhole() async throws {
        let connection = try await TestBroker.connect()
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
        let connection = try await TestBroker.connect(try TestBroker.configuration(urls: "amqp://guest:guest@127.0.0.1:1/%2F,\(TestBroker.url)"))
        #expect(connection.isConnected)
        await connection.close()

        await #expect {
            _ = try await TestBroker.connect(try TestBroker.configuration(urls: "amqp://guest:guest@127.0.0.1:1/%2F"))
        } throws: { error in
            (error as? AMQPError)?.code == .connectionFailed && "\(error)".contains("127.0.0.1:1")
        }
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
}
