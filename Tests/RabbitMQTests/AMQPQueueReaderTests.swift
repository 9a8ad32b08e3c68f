import Foundation
import RabbitMQ
import Testing

/// basic.get readers against the real RabbitMQ node of scripts/test.sh.
@Suite struct AMQPQueueReaderTests {
    @Test func readsInQueueOrderWithTheCountLeftAndEndsWhenTheQueueIsEmpty() async throws {
        let connection = try await TestBroker.connect()
        defer { Task { await connection.close() } }
        let queue = try await publishNumbered(5, on: connection)

        let reader = try await connection.openReader(queue: queue)
        var read: [(body: [UInt8], remaining: Int)] = []
        while let message = try await reader.next() {
            read.append((message.delivery.body, message.remaining))
        }
        #expect(read.map(\.body) == [[0], [1], [2], [3], [4]])
        #expect(read.map(\.remaining) == [4, 3, 2, 1, 0])
        try await reader.close()
        _ = try await connection.deleteQueue(queue)
    }

    @Test func closingRemovesTheAckedAndPutsTheOthersBackInTheirPlace() async throws {
        let connection = try await TestBroker.connect()
        defer { Task { await connection.close() } }
        let queue = try await publishNumbered(6, on: connection)

        let reader = try await connection.openReader(queue: queue)
        var messages: [AMQPDelivery] = []
        while let message = try await reader.next() { messages.append(message.delivery) }
        messages[1].ack()
        messages[4].ack()
        messages[5].ack()
        try await reader.close()

        let again = try await connection.openReader(queue: queue)
        var left: [[UInt8]] = []
        while let message = try await again.next() { left.append(message.delivery.body) }
        try await again.close()
        #expect(left == [[0], [2], [3]])
        #expect(try await connection.deleteQueue(queue) == 3)
    }

    @Test func whatAReaderHoldsIsNotDeliveredToAConsumerUntilItCloses() async throws {
        let connection = try await TestBroker.connect()
        defer { Task { await connection.close() } }
        let queue = try await publishNumbered(2, on: connection)

        let reader = try await connection.openReader(queue: queue)
        let first = try #require(try await reader.next())
        #expect(first.delivery.body == [0])

        let collector = DeliveryCollector()
        await collector.start(try await connection.consume(queue: queue, prefetch: 10), ack: true)
        #expect(try await eventually { await collector.count == 1 })
        try await Task.sleep(for: .milliseconds(200))
        #expect(await collector.deliveries.map(\.body) == [[1]])

        try await reader.close()
        #expect(try await eventually { await collector.count == 2 })
        #expect(await collector.deliveries.last?.body == [0])
        await collector.stop()
        _ = try await connection.deleteQueue(queue)
    }

    @Test func aMissingQueueFailsWithTheBrokersReasonAndTheConnectionStaysUsable() async throws {
        let connection = try await TestBroker.connect()
        defer { Task { await connection.close() } }
        let reader = try await connection.openReader(queue: TestBroker.uniqueName("missing"))

        await #expect {
            _ = try await reader.next()
        } throws: { error in
            guard let error = error as? AMQPError else { return false }
            return error.code == .channelClosed && error.replyCode == 404 && error.message.contains("NOT_FOUND")
        }
        await #expect(throws: AMQPError.self) { _ = try await reader.next() }
        try await reader.close()

        let queue = try await publishNumbered(1, on: connection)
        #expect(try await connection.deleteQueue(queue) == 1)
    }

    @Test func aConnectionClosedWithoutClosingItsReaderGivesBackWhatTheReaderHeld() async throws {
        let connection = try await TestBroker.connect()
        defer { Task { await connection.close() } }
        let queue = try await publishNumbered(3, on: connection)
        let reader = try await connection.openReader(queue: queue)
        let held = try #require(try await reader.next())

        // As when a tool is killed in the middle of its work: its connection ends, the broker takes back what it held.
        let killed = try await TestBroker.connect()
        let killedReader = try await killed.openReader(queue: queue)
        #expect(try await killedReader.next()?.delivery.body == [1])
        await killed.close()
        held.delivery.ack()
        try await reader.close()

        let check = try await connection.openReader(queue: queue)
        var left: [[UInt8]] = []
        while let message = try await check.next() { left.append(message.delivery.body) }
        try await check.close()
        #expect(left == [[1], [2]])
        _ = try await connection.deleteQueue(queue)
    }

    private func publishNumbered(_ count: Int, on connection: AMQPConnection) async throws -> String {
        let queue = try await TestBroker.temporaryQueue("reader", on: connection)
        for index in 0..<count {
            try await connection.publish(
                AMQPMessage(exchange: "", routingKey: queue, properties: AMQPProperties(messageID: "m\(index)"), body: [UInt8(index)]))
        }
        return queue
    }
}
