import Foundation
import RabbitMQ
import Synchronization
import Testing

/// Connection loss while a consumer and a publisher are busy. These tests close every connection of the
/// test node, stop it, or raise its memory alarm, so scripts/test.sh runs them on their own, one at a time,
/// after the other suites.
@Suite(.serialized) struct BrokerDisruptionTests {
    /// Publishes `count` numbered messages, re-publishing any whose confirm was lost with the connection.
    private func publishAll(_ count: Int, to queue: String, on connection: AMQPConnection, progress: borrowing Mutex<Int>) async throws {

        for index in 0..<count {
            while true {
                do {
                    try await connection.publish(
                        AMQPMessage(
                            exchange: "", routingKey: queue,
                            properties: AMQPProperties(deliveryMode: .persistent, messageID: "\(index)"),
                            body: Array("\(index)".utf8)))
                    break
                } catch let error as AMQPError where error.isRetryable {

                    try await Task.sleep(for: .milliseconds(50))
                }
            }
            progress.withLock { $0 = index + 1 }
            if index % 50 == 0 { try await Task.sleep(for: .milliseconds(5)) }
        }

    }

    private func recoversWithoutLosingMessages(disrupt: @Sendable () async throws -> Void) async throws {
        let connection = try await TestBroker.connect()
        defer { Task { await connection.close() } }
        let queue = TestBroker.uniqueName("recovery")
        try await connection.declare(AMQPTopology(queues: [.init(name: queue, durable: true)]))

        let received = Mutex<Set<String>>([])
        let consumer = try await connection.consume(queue: queue, prefetch: 50)
        let consuming = Task {
            for await delivery in consumer {
                received.withLock { _ = $0.insert(delivery.properties.messageID ?? "?") }
                delivery.ack()
            }
        }
        let count = 1_500
        let progress = Mutex(0)
        let publishing = Task { try await publishAll(count, to: queue, on: connection, progress: progress) }
        #expect(try await eventually { progress.withLock { $0 } >= 200 })
        try await disrupt()
        let publishedBeforeDisruption = progress.withLock { $0 }
        #expect(publishedBeforeDisruption < count, "the publisher had finished before the disruption; the test proves nothing")

        _ = try await publishing.value
        let complete = try await eventually(timeout: .seconds(60)) { received.withLock { $0.count } == count }
        #expect(complete, "received \(received.withLock { $0.count }) of \(count) distinct messages")
        #expect(connection.statistics.reconnects >= 1)
        #expect(connection.isConnected)
        // A stale delivery tag acked on the new channel would make the broker close it (406).
        #expect(connection.statistics.channelsClosedByBroker == 0)
        consuming.cancel()
        _ = try await connection.deleteQueue(queue)
    }

    @Test func recoversWhenTheBrokerClosesAllConnections() async throws {
        try await recoversWithoutLosingMessages {
            try TestBroker.rabbitmqctl("close_all_connections", "recovery test")
        }
    }

    @Test func recoversWhenTheBrokerIsStoppedAndStarted() async throws {
        try await recoversWithoutLosingMessages {
            try TestBroker.rabbitmqctl("stop_app")
            try await Task.sleep(for: .seconds(2))
            try TestBroker.rabbitmqctl("start_app")
        }
    }

    @Test func publishingWaitsWhileTheBrokerBlocksIt() async throws {
        let connection = try await TestBroker.connect()
        defer { Task { await connection.close() } }
        let queue = try await TestBroker.temporaryQueue("blocked", on: connection)
        try TestBroker.rabbitmqctl("set_vm_memory_high_watermark", "0.0000001")
        defer { try? TestBroker.rabbitmqctl("set_vm_memory_high_watermark", "0.4") }
        try await Task.sleep(for: .seconds(1))

        let published = Mutex(false)
        let publishing = Task {
            try await connection.publish(AMQPMessage(exchange: "", routingKey: queue, body: "waits".bytes))
            published.withLock { $0 = true }
        }
        try await Task.sleep(for: .seconds(1))
        #expect(published.withLock { $0 } == false, "a publish went through while the broker blocked publishing")
        #expect(connection.isBlocked)

        try TestBroker.rabbitmqctl("set_vm_memory_high_watermark", "0.4")
        try await publishing.value
        #expect(published.withLock { $0 })
        #expect(!connection.isBlocked)
        #expect(try await connection.deleteQueue(queue) == 1)
    }
}
