import Foundation
import RabbitMQ

/// The consume → publish-with-confirm → ack loop, on the Swift transport and on plain librabbitmq.
///
/// Both loops drain the same number of persistent messages from a durable queue into another one, on the
/// same broker, in alternating rounds, so that the machine's noise hits both alike.
struct TransportBenchmark {
    enum Implementation: String, CaseIterable {
        case c = "C loop (librabbitmq)"
        case swift = "Swift transport"
    }

    struct Sample {
        var implementation: Implementation
        var prefetch: UInt16
        var messagesPerSecond: Double
        /// CPU time of the whole bench process during the round, per message moved.
        var cpuMicrosecondsPerMessage: Double
    }

    let endpoint: AMQPEndpoint
    let count: Int
    let rounds: Int
    let prefetches: [UInt16]

    func run() async throws -> [Sample] {
        let connection = try await AMQPConnection.connect(AMQPConfiguration(endpoints: [endpoint]), logger: ConnectionLogger.shared)
        defer { Task { await connection.close() } }
        var samples: [Sample] = []
        for prefetch in prefetches {
            for round in 1...rounds {
                // Alternate which goes first, so that neither always runs on a warmer broker.
                let order = round % 2 == 1 ? Implementation.allCases : Implementation.allCases.reversed()
                for implementation in order {
                    let (rate, cpu) = try await measure(implementation, prefetch: prefetch, on: connection)
                    samples.append(
                        Sample(implementation: implementation, prefetch: prefetch, messagesPerSecond: rate, cpuMicrosecondsPerMessage: cpu))
                    log(
                        String(
                            format: "  prefetch %3d round %d  %-22@ %8.0f msg/s %6.1f µs CPU/msg", prefetch, round,
                            implementation.rawValue as NSString, rate, cpu))
                }
            }
        }
        return samples
    }

    /// Returns messages per second and CPU microseconds per message.
    private func measure(_ implementation: Implementation, prefetch: UInt16, on connection: AMQPConnection) async throws -> (Double, Double)
    {
        let suffix = UUID().uuidString.prefix(8)
        let commands = "bench.commands.\(suffix)"
        let events = "bench.events.\(suffix)"
        try await connection.declare(AMQPTopology(queues: [.init(name: commands), .init(name: events)]))
        defer {
            Task {
                _ = try? await connection.deleteQueue(commands)
                _ = try? await connection.deleteQueue(events)
            }
        }
        try await fill(commands, on: connection)

        let cpuBefore = ProcessCPUTime.seconds()
        let rate =
            switch implementation {
            case .c:
                try await runCLoop(from: commands, to: events, prefetch: prefetch)
            case .swift:
                try await runSwiftLoop(from: commands, to: events, prefetch: prefetch, on: connection)
            }
        return (rate, (ProcessCPUTime.seconds() - cpuBefore) * 1e6 / Double(count))
    }

    private func fill(_ queue: String, on connection: AMQPConnection) async throws {
        let body = Array(
            #"{"cartId":"cart-42","customerId":"cust-7","baseVersion":0,"currency":"EUR","items":[{"sku":"SKU-RED-M","quantity":2}]}"#.utf8)
        let properties = AMQPProperties(contentType: "application/json", deliveryMode: .persistent)
        var sent = 0
        while sent < count {
            let batch = min(1_000, count - sent)
            try await withThrowingDiscardingTaskGroup { group in
                for _ in 0..<batch {
                    group.addTask {
                        try await connection.publish(AMQPMessage(exchange: "", routingKey: queue, properties: properties, body: body))
                    }
                }
            }
            sent += batch
        }
    }

    private func runCLoop(from commands: String, to events: String, prefetch: UInt16) async throws -> Double {
        let outcome = try await RawCLoop.run(endpoint: endpoint, from: commands, to: events, prefetch: prefetch, count: count)
        return Double(outcome.processed) / outcome.seconds
    }

    private func runSwiftLoop(
        from commands: String, to events: String, prefetch: UInt16, on connection: AMQPConnection
    ) async throws -> Double {
        let eventProperties = AMQPProperties(contentType: "application/json", deliveryMode: .persistent)
        let count = self.count
        // As the worker runs its consumers: on the connection's executor, so no message changes threads.
        let elapsed = try await withTaskExecutorPreference(connection.executor) {
            let consumer = try await connection.consume(queue: commands, prefetch: prefetch)
            var started: ContinuousClock.Instant?
            try await withThrowingDiscardingTaskGroup { group in
                var received = 0
                for await delivery in consumer {
                    if received == 0 { started = .now }
                    received += 1
                    group.addTask {
                        try await connection.publish(
                            AMQPMessage(exchange: "", routingKey: events, properties: eventProperties, body: delivery.body))
                        delivery.ack()
                    }
                    if received == count { break }
                }
            }
            return ContinuousClock.now - started!
        }
        return Double(count) / elapsed.seconds
    }
}
