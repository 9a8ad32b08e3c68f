import CheckoutMessaging
import RabbitMQ
import Testing

@Suite struct CheckoutTopologyTests {
    @Test func declaresTheContractsNamesWithRetryQueuesThatReturnToTheirWorkQueue() throws {
        var configuration = MessagingConfiguration(concurrency: 1)
        configuration.retryDelays = try RetryDelays("1s,5s")

        let topology = CheckoutTopology.make(configuration)

        #expect(Set(topology.exchanges.map(\.name)) == ["checkout.commands", "checkout.events", "checkout.dead-letter"])
        #expect(topology.exchanges.allSatisfy { $0.type == "topic" && $0.durable })
        #expect(topology.bindings.contains(.init(queue: "checkout.sync-cart", exchange: "checkout.commands", routingKey: "cart.sync")))
        #expect(topology.bindings.contains(.init(queue: "checkout.place-order", exchange: "checkout.commands", routingKey: "order.place")))
        #expect(topology.bindings.contains(.init(queue: "checkout.dead-letter", exchange: "checkout.dead-letter", routingKey: "#")))
        let retry = try #require(topology.queues.first { $0.name == "checkout.retry.place-order.5s" })
        #expect(retry.arguments["x-message-ttl"] == .int64(5000))
        #expect(retry.arguments["x-dead-letter-exchange"] == .string(""))
        #expect(retry.arguments["x-dead-letter-routing-key"] == .string("checkout.place-order"))
        #expect(topology.queues.count == 3 + 4)
        #expect(topology.queues.allSatisfy { $0.durable && $0.arguments["x-queue-type"] == .string("classic") })
    }

    @Test func quorumRetryQueuesDeadLetterAtLeastOnce() {
        var configuration = MessagingConfiguration(concurrency: 1)
        configuration.queueType = .quorum

        let topology = CheckoutTopology.make(configuration)

        #expect(topology.queues.allSatisfy { $0.arguments["x-queue-type"] == .string("quorum") })
        let retry = topology.queues.first { $0.name == "checkout.retry.sync-cart.1s" }
        #expect(retry?.arguments["x-dead-letter-strategy"] == .string("at-least-once"))
        #expect(retry?.arguments["x-overflow"] == .string("reject-publish"))
    }
}
