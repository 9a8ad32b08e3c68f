import CRabbitMQ
import Foundation
import Testing

@testable import RabbitMQ

/// Whatever a client can put in a message reaches the consumer without trapping, and can be published
/// again as it came. Against the real RabbitMQ node of scripts/test.sh.
@Suite struct HostileMessageTests {
    @Test func timestampsAtTheEndsOfTheirRangeRoundTripExactly() async throws {
        try await withQueue("timestamps") { connection, queue in
            let extremes: [UInt64] = [0, 1, 1 << 53 + 1, UInt64.max - 1, UInt64.max]
            for seconds in extremes {
                let properties = AMQPProperties(
                    headers: ["when": .timestamp(AMQPTimestamp(secondsSince1970: seconds))],
                    timestamp: AMQPTimestamp(secondsSince1970: seconds)
                )
                try await connection.publish(AMQPMessage(exchange: "", routingKey: queue, properties: properties, body: []))
            }
            let received = try await take(extremes.count, from: queue, on: connection)

            #expect(received.map(\.properties.timestamp?.secondsSince1970) == extremes)
            #expect(received.map { $0.properties.headers?["when"] } == extremes.map { .timestamp(AMQPTimestamp(secondsSince1970: $0)) })
            for delivery in received {
                try await connection.publish(AMQPMessage(exchange: "", routingKey: queue, properties: delivery.properties, body: []))
            }
            #expect(try await take(extremes.count, from: queue, on: connection).map(\.properties) == received.map(\.properties))
        }
    }

    @Test func datesOutsideTheWiresRangeAreClampedNotTrapped() {
        #expect(AMQPTimestamp(Date(timeIntervalSince1970: -5)).secondsSince1970 == 0)
        #expect(AMQPTimestamp(Date(timeIntervalSince1970: 1e300)).secondsSince1970 == .max)
        #expect(AMQPTimestamp(Date(timeIntervalSince1970: .infinity)).secondsSince1970 == .max)
        #expect(AMQPTimestamp(Date(timeIntervalSince1970: .nan)).secondsSince1970 == 0)
        #expect(AMQPTimestamp(Date(timeIntervalSince1970: 1_790_000_000.9)).secondsSince1970 == 1_790_000_000)
    }

    @Test func headersNestedPastTheLimitAreCutAndSaidSo() async throws {
        try await withQueue("deep") { connection, queue in
            try await connection.publish(
                AMQPMessage(exchange: "", routingKey: queue, properties: AMQPProperties(headers: ["deep": nested(200)]), body: [1]))
            try await connection.publish(
                AMQPMessage(exchange: "", routingKey: queue, properties: AMQPProperties(headers: ["shallow": nested(3)]), body: [2]))

            let received = try await take(2, from: queue, on: connection)

            #expect(received[0].headersTruncated)
            // The headers table is the first level.
            #expect(depth(of: received[0].properties.headers?["deep"]) == AMQPDelivery.maximumHeaderDepth - 1)
            #expect(!received[1].headersTruncated)
            #expect(received[1].properties.headers?["shallow"] == nested(3))
        }
    }

    @Test func aBodyOverTheConsumersLimitArrivesCutWithItsSize() async throws {
        try await withQueue("large") { connection, queue in
            let body = (0..<300_000).map { UInt8(truncatingIfNeeded: $0) }
            try await connection.publish(AMQPMessage(exchange: "", routingKey: queue, properties: AMQPProperties(), body: body))
            try await connection.publish(AMQPMessage(exchange: "", routingKey: queue, properties: AMQPProperties(), body: [7]))

            let consumer = try await connection.consume(queue: queue, prefetch: 10, maximumBodyBytes: 1000)
            var iterator = consumer.makeAsyncIterator()
            let large = try #require(await iterator.next())
            let small = try #require(await iterator.next())
            large.ack()
            small.ack()

            #expect(large.body == Array(body.prefix(1000)))
            #expect(large.bodySize == 300_000)
            #expect(!large.isBodyComplete)
            #expect(small.body == [7] && small.isBodyComplete)
        }
    }

    @Test func propertiesThatCannotFitInAFrameFailThatPublishAloneOnEitherTransport() async throws {
        for tls in [false, true] {
            var configuration = try TestBroker.configuration(urls: tls ? TestBroker.tlsURL : TestBroker.url)
            configuration.tls.caFile = TestBroker.caFile
            let connection = try await TestBroker.connect(configuration)
            let queue = try await TestBroker.temporaryQueue("oversized", on: connection)
            let huge = AMQPProperties(headers: ["pad": .bytes(Array(repeating: 0, count: connection.maximumPropertiesByteCount))])
            #expect(huge.encodedByteCount > connection.maximumPropertiesByteCount)

            let error = await #expect(throws: AMQPError.self) {
                try await connection.publish(AMQPMessage(exchange: "", routingKey: queue, properties: huge, body: [1]))
            }
            #expect(error?.code == .protocolError)
            let fitting = AMQPProperties(headers: ["pad": .bytes(Array(repeating: 0, count: connection.maximumPropertiesByteCount - 100))])
            #expect(fitting.encodedByteCount <= connection.maximumPropertiesByteCount)
            try await connection.publish(AMQPMessage(exchange: "", routingKey: queue, properties: fitting, body: [2]))
            #expect(connection.statistics.reconnects == 0)
            _ = try await connection.deleteQueue(queue)
            await connection.close()
        }
    }

    /// A quorum queue adds `x-delivery-count` to a message it hands back, even when that no longer fits
    /// the frame: one a client filled to the brim, handed back once (a worker killed, a shutdown's
    /// unhandled prefetch), dropped the connection of every consumer it went to next, for ever.
    @Test func aMessageAQuorumQueueHandsBackPastTheFrameSizeStillArrives() async throws {
        let first = try await TestBroker.connect()
        let queue = TestBroker.uniqueName("quorum-full")
        try await first.declare(
            AMQPTopology(queues: [.init(name: queue, durable: true, autoDelete: false, arguments: ["x-queue-type": .string("quorum")])]))
        let padding = first.maximumPropertiesByteCount - AMQPProperties(headers: ["pad": .bytes([])]).encodedByteCount - 4
        let brimful = AMQPProperties(headers: ["pad": .bytes(Array(repeating: 1, count: padding))])
        #expect(brimful.encodedByteCount == first.maximumPropertiesByteCount - 4)
        try await first.publish(AMQPMessage(exchange: "", routingKey: queue, properties: brimful, body: [1]))
        var firstDeliveries = try await first.consume(queue: queue, prefetch: 1).makeAsyncIterator()
        _ = try #require(await firstDeliveries.next())
        await first.close()

        let second = try await TestBroker.connect()
        defer {
            Task {
                _ = try? await second.deleteQueue(queue); await second.close()
            }
        }
        let consumer = try await second.consume(queue: queue, prefetch: 1)
        let handedBack = try await withThrowingTaskGroup(of: AMQPDelivery?.self) { group in
            group.addTask {
                var deliveries = consumer.makeAsyncIterator()
                return await deliveries.next()
            }
            group.addTask {
                try await Task.sleep(for: .seconds(10))
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }

        let delivery = try #require(handedBack, "not delivered again within 10 s (reconnects: \(second.statistics.reconnects))")
        delivery.ack()
        #expect(delivery.properties.headers?["x-delivery-count"] != nil)
        #expect(delivery.properties.encodedByteCount > second.maximumPropertiesByteCount)
        #expect(second.statistics.reconnects == 0)
    }

    /// librabbitmq refuses a short string over 255 bytes only once it has written part of the message
    /// without gathering (TLS), which would break the connection and every publish in flight on it.
    @Test func shortStringsOverTheirLimitFailThatPublishAloneOnEitherTransport() async throws {
        let overlong = String(repeating: "m", count: 256)
        for tls in [false, true] {
            var configuration = try TestBroker.configuration(urls: tls ? TestBroker.tlsURL : TestBroker.url)
            configuration.tls.caFile = TestBroker.caFile
            let connection = try await TestBroker.connect(configuration)
            let queue = try await TestBroker.temporaryQueue("overlong", on: connection)
            let messages = [
                (
                    AMQPMessage(exchange: "", routingKey: queue, properties: AMQPProperties(messageID: overlong), body: [1]),
                    "message_id (256 bytes)"
                ),
                (
                    AMQPMessage(exchange: "", routingKey: queue, properties: AMQPProperties(correlationID: overlong), body: [1]),
                    "correlation_id (256 bytes)"
                ),
                (AMQPMessage(exchange: "", routingKey: overlong, body: [1]), "routing key (256 bytes)"),
                (
                    AMQPMessage(
                        exchange: "", routingKey: queue, properties: AMQPProperties(headers: ["t": .array([.table([overlong: .void])])]),
                        body: [1]),
                    "a header key (256 bytes)"
                ),
            ]
            for (message, named) in messages {
                let error = await #expect(throws: AMQPError.self) { try await connection.publish(message) }
                #expect(error?.code == .protocolError)
                #expect(error?.message.contains(named) == true, "\(String(describing: error))")
            }
            try await connection.publish(
                AMQPMessage(exchange: "", routingKey: queue, properties: AMQPProperties(messageID: String(overlong.dropLast())), body: [2]))
            #expect(connection.statistics.reconnects == 0)
            _ = try await connection.deleteQueue(queue)
            await connection.close()
        }
    }

    /// The worker sends a client's short strings back (a copy's properties, an event's `correlation_id`,
    /// a reply's routing key), and AMQP caps them at 255 bytes: text that is not UTF-8 keeps its length.
    @Test(arguments: [
        (Array("id-".utf8) + [0xFF, 0xFE] + Array("é".utf8), "id-????"), (Array("id-é".utf8), "id-é"), ([0xC3], "?"), ([], ""),
    ])
    func textThatIsNotUTF8KeepsItsLengthInQuestionMarks(bytes: [UInt8], text: String) {
        var bytes = bytes
        let decoded = bytes.withUnsafeMutableBytes { AMQPCDecoding.string(amqp_bytes_t(len: $0.count, bytes: $0.baseAddress)) }
        #expect(decoded == text)
        #expect(decoded.utf8.count == bytes.count)
    }

    @Test func theEncodedSizeOfPropertiesIsWhatTheBrokerCounts() {
        let properties = AMQPProperties(
            contentType: "application/json",
            headers: [
                "a": .string("xyz"), "b": .array([.int8(1), .table(["c": .void])]), "d": .timestamp(AMQPTimestamp(secondsSince1970: 1)),
            ],
            deliveryMode: .persistent,
            messageID: "m"
        )
        // content type 1+16, headers 4 + (1+1+1+4+3) + (1+1+1+4+(2)+(1+4+(1+1+1))) + (1+1+9), delivery mode 1, message id 1+1
        #expect(properties.encodedByteCount == 17 + 4 + 10 + 17 + 11 + 1 + 2)
    }

    @Test func aConsumerTheBrokerCancelledDeclaresItsQueueAgainAndResumes() async throws {
        let connection = try await TestBroker.connect()
        defer { Task { await connection.close() } }
        let admin = try await TestBroker.connect()
        defer { Task { await admin.close() } }
        let queue = TestBroker.uniqueName("cancelled")
        try await connection.declare(AMQPTopology(queues: [.init(name: queue, durable: false, autoDelete: false)]))
        let consumer = try await connection.consume(queue: queue, prefetch: 10)
        let collector = DeliveryCollector()
        await collector.start(consumer, ack: true)
        #expect(consumer.isSubscribed)

        _ = try await admin.deleteQueue(queue)

        #expect(try await eventually { connection.statistics.consumersCancelledByBroker == 1 })
        #expect(
            try await eventually {
                guard consumer.isSubscribed else { return false }
                return (try? await admin.publishMandatory(queue, body: [9])) != nil
            })
        #expect(try await eventually { await collector.count >= 1 })
        await collector.stop()
        _ = try await admin.deleteQueue(queue)
    }

    // MARK: Helpers

    private func withQueue(_ prefix: String, _ body: (AMQPConnection, String) async throws -> Void) async throws {
        let connection = try await TestBroker.connect()
        let queue = try await TestBroker.temporaryQueue(prefix, on: connection)
        do {
            try await body(connection, queue)
        } catch {
            _ = try? await connection.deleteQueue(queue)
            await connection.close()
            throw error
        }
        _ = try await connection.deleteQueue(queue)
        await connection.close()
    }

    /// Takes `count` messages with basic.get, acking each.
    private func take(_ count: Int, from queue: String, on connection: AMQPConnection) async throws -> [AMQPDelivery] {
        let reader = try await connection.openReader(queue: queue)
        var taken: [AMQPDelivery] = []
        let deadline = ContinuousClock.now + .seconds(10)
        while taken.count < count, ContinuousClock.now < deadline {
            if let message = try await reader.next() {
                message.delivery.ack()
                taken.append(message.delivery)
            } else {
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        try await reader.close()
        return taken
    }

    private func nested(_ levels: Int) -> AMQPFieldValue {
        var value = AMQPFieldValue.string("bottom")
        for level in 0..<levels { value = level.isMultiple(of: 2) ? .table(["t": value]) : .array([value]) }
        return value
    }

    private func depth(of value: AMQPFieldValue?) -> Int {
        switch value {
        case .table(let table): 1 + depth(of: table.values.first)
        case .array(let values): 1 + depth(of: values.first)
        default: 0
        }
    }
}

extension AMQPConnection {
    /// A mandatory publish to the default exchange: throws `unroutable` while the queue does not exist.
    func publishMandatory(_ queue: String, body: [UInt8]) async throws {
        try await publish(AMQPMessage(exchange: "", routingKey: queue, properties: AMQPProperties(), body: body, mandatory: true))
    }
}
