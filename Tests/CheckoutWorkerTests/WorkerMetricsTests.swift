import CheckoutMessaging
import CheckoutOperations
import CheckoutTestSupport
import Foundation
import Prometheus
import RabbitMQ
import Testing

@testable import checkout_worker

/// What `/metrics` tells an autoscaler and an on-call person: every metric explained, how long commands
/// waited in the broker, the broker connection and the build.
@Suite struct WorkerMetricsTests {
    @Test func exportsQueueWaitBrokerStateBuildAndUnseenOutcomesEachWithHelp() async throws {
        try await withWorld { world, worker in
            let sentAt = AMQPTimestamp(Date().addingTimeInterval(-3))
            let timed = AMQPProperties(contentType: "application/json", messageID: "timed-1", timestamp: sentAt)
            try await world.client.publish(
                AMQPMessage(
                    exchange: world.names.commandsExchange, routingKey: "cart.sync", properties: timed,
                    body: Array(Bodies.syncCart(cart: "cart-timed").utf8), mandatory: true))
            try await world.send(.syncCart, Bodies.syncCart(cart: "cart-untimed"), messageID: "untimed-1")
            try await world.events.wait(for: 2) { ["timed-1", "untimed-1"].contains($0.properties.correlationID ?? "") }

            var text = worker.metrics.registry.emitToString()
            let deadline = ContinuousClock.now + .seconds(10)
            while !text.contains("checkout_broker_deliveries_total 2"), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(200))
                text = worker.metrics.registry.emitToString()
            }

            let lines = text.split(separator: "\n")
            let typed = lines.filter { $0.hasPrefix("# TYPE ") }.map { $0.split(separator: " ")[2] }
            let helped = Set(lines.filter { $0.hasPrefix("# HELP ") }.map { $0.split(separator: " ")[2] })
            #expect(!typed.isEmpty && typed.allSatisfy(helped.contains), "without help: \(typed.filter { !helped.contains($0) })")
            #expect(value(of: "checkout_command_queue_wait_seconds_count", ["command=\"cart.sync\""], in: lines) == 1)
            #expect(value(of: "checkout_command_queue_wait_seconds_bucket", ["command=\"cart.sync\"", "le=\"2.5\""], in: lines) == 0)
            #expect(value(of: "checkout_commands_untimed_total", ["command=\"cart.sync\"", "reason=\"absent\""], in: lines) == 1)
            #expect(value(of: "checkout_build_info", ["version=\"\(CheckoutWorkerVersion.current)\""], in: lines) == 1)
            #expect(value(of: "checkout_broker_connected", [], in: lines) == 1)
            #expect(value(of: "checkout_broker_blocked", [], in: lines) == 0)
            #expect(value(of: "checkout_broker_deliveries_total", [], in: lines) == 2)
            // Outcomes no command has had yet are exported at zero, so a rate over them is defined from the start.
            #expect(value(of: "checkout_orders_total", ["result=\"rejected\"", "reason=\"payment-declined\""], in: lines) == 0)
            #expect(value(of: "checkout_cart_syncs_total", ["result=\"rejected\"", "reason=\"version-conflict\""], in: lines) == 0)
            #expect(value(of: "checkout_command_duration_seconds_count", ["command=\"order.place\"", "result=\"failed\""], in: lines) == 0)
        }
    }

    @Test func countsTheRoundTripsToTheDatabase() async throws {
        let database = try await TestDatabase.make(.sqlite)
        do {
            try await sendsOneSync(storingIn: database)
        } catch {
            await database.drop()
            throw error
        }
        await database.drop()
    }

    private func sendsOneSync(storingIn database: TestDatabase) async throws {
        try await withWorld(["CHECKOUT_DATABASE_URL": database.url]) { world, worker in
            try await world.send(.syncCart, Bodies.syncCart(cart: "cart-counted"), messageID: "counted-1")
            try await world.events.wait(for: 1) { $0.properties.correlationID == "counted-1" }

            // Each sampled counter is exported at 0 from its making until the first sample adds to it.
            var roundTrips: Double?
            let deadline = ContinuousClock.now + .seconds(10)
            repeat {
                try await Task.sleep(for: .milliseconds(200))
                roundTrips = value(
                    of: "checkout_database_round_trips_total", [], in: worker.metrics.registry.emitToString().split(separator: "\n"))
            } while (roundTrips ?? 0) == 0 && ContinuousClock.now < deadline

            #expect((roundTrips ?? 0) > 0)
        }
    }

    /// The value of the sample of `name` whose labels include every one of `labels`.
    private func value(of name: String, _ labels: [String], in lines: [Substring]) -> Double? {
        lines.first { line in
            (line.hasPrefix(name + "{") || line.hasPrefix(name + " ")) && labels.allSatisfy { line.contains($0) }
        }.flatMap { $0.split(separator: " ").last.flatMap { Double($0) } }
    }
}
