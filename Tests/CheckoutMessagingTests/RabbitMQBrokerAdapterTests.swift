import CheckoutDomain
import Foundation
import Logging
import RabbitMQ
import Testing

@testable import CheckoutMessaging

/// The command handler over the RabbitMQ implementation of its port, against the test node
/// (`RABBITMQ_URL`): what the in-memory broker stands in for elsewhere.
@Suite struct RabbitMQBrokerAdapterTests {
    private static var url: String {
        ProcessInfo.processInfo.environment["RABBITMQ_URL"].flatMap { $0.isEmpty ? nil : $0 } ?? "amqp://guest:guest@127.0.0.1:21672/%2F"
    }

    @Test func deadLettersThroughTheConnectionAndAcksTheDelivery() async throws {
        try await withNode { node in
            let handler = try await node.handler()
            try await node.publishCommand(properties: AMQPProperties())

            var deliveries = try await node.consumeCommands().makeAsyncIterator()
            await handler.handle(try #require(await deliveries.next()), kind: .syncCart)
            // Closing sends every settlement first; the broker would take an unacked command back.
            await node.connection.close()
            let connection = try await Self.connect()
            defer { Task { await connection.close() } }

            #expect(try await connection.purgeQueue(node.commands) == 0, "the command was acked")
            let reader = try await connection.openReader(queue: node.configuration.deadLetter)
            let dead = try #require(try await reader.next()).delivery
            // Published straight to the queue, it came with the queue's name as its routing key.
            #expect(dead.routingKey == node.commands)
            #expect(dead.properties.headers?[RetryHeaders.errorReason]?.stringValue == "unknown-routing-key")
            #expect(dead.body == ClientMessages.syncCart())
            try await reader.close()
        }
    }

    @Test func aRetryTheBrokerCannotRouteHandsTheDeliveryBack() async throws {
        try await withNode { node in
            let failures = ExecutionFailures()
            failures.fail(with: RetryableError(code: .databaseUnavailable, context: "loading cart cart-42"))
            let handler = try await node.handler(failures: failures)
            // Published straight to the queue, it poses as a retry the worker parked, whose routing key a signed header keeps.
            let parked: AMQPFieldTable = [
                RetryHeaders.retryCount: .int64(0),
                RetryHeaders.retrySignature: .string(Node.signer.signature(messageID: "sync-1", retryCount: 0)),
                RetryHeaders.originalRoutingKey: "cart.sync",
            ]
            try await node.publishCommand(properties: ClientMessages.properties(messageID: "sync-1", headers: parked))

            var deliveries = try await node.consumeCommands().makeAsyncIterator()
            // No retry queue is declared, so the mandatory retry copy comes back unroutable.
            await handler.handle(try #require(await deliveries.next()), kind: .syncCart)

            let again = try #require(await deliveries.next())
            #expect(again.redelivered)
            #expect(again.properties.messageID == "sync-1")
            again.ack()
        }
    }

    /// A command queue and a dead-letter exchange and queue of one test's own on the test node.
    private struct Node {
        let connection: AMQPConnection
        let commands: String
        let configuration: MessagingConfiguration
        static let signer = RetrySigner(key: Array(repeating: 7, count: 32))

        init(connection: AMQPConnection) throws {
            self.connection = connection
            let id = UUID().uuidString.prefix(8)
            commands = "test.commands.\(id)"
            var configuration = try CommandHandlerSUT.configuration()
            configuration.deadLetter = "test.dead-letter.\(id)"
            configuration.retryQueuePrefix = "test.retry.\(id)"
            self.configuration = configuration
        }

        func handler(failures: ExecutionFailures = ExecutionFailures()) async throws -> CommandHandler {
            try await CommandHandlerSUT.makeHandler(
                over: connection, configuration: configuration, signer: Self.signer,
                failures: failures, pauseBeforeRequeue: .zero)
        }

        func publishCommand(properties: AMQPProperties) async throws {
            try await connection.publish(
                AMQPMessage(exchange: "", routingKey: commands, properties: properties, body: ClientMessages.syncCart()))
        }

        func consumeCommands() async throws -> AMQPConsumer {
            try await connection.consume(queue: commands, prefetch: 1)
        }
    }

    private static func connect() async throws -> AMQPConnection {
        var configuration = try AMQPConfiguration(urls: url)
        configuration.connectTimeout = .seconds(5)
        configuration.connectionName = "checkout-messaging-tests"
        return try await AMQPConnection.connect(
            configuration, logger: Logger(label: "checkout-messaging-tests") { _ in SwiftLogNoOpLogHandler() })
    }

    private func withNode(_ body: (Node) async throws -> Void) async throws {
        let node = try Node(connection: try await Self.connect())
        let deadLetter = node.configuration.deadLetter
        try await node.connection.declare(
            AMQPTopology(
                exchanges: [.init(name: deadLetter, type: "topic", durable: false, autoDelete: false)],
                queues: [
                    .init(name: node.commands, durable: false, autoDelete: false),
                    .init(name: deadLetter, durable: false, autoDelete: false),
                ],
                bindings: [.init(queue: deadLetter, exchange: deadLetter, routingKey: "#")]
            ))
        do {
            try await body(node)
        } catch {
            await cleanUp(node)
            throw error
        }
        await cleanUp(node)
    }

    /// Removes what `withNode` declared, over a connection of its own: the test's may be closed.
    private func cleanUp(_ node: Node) async {
        await node.connection.close()
        guard let connection = try? await Self.connect() else { return }
        _ = try? await connection.deleteQueue(node.commands)
        _ = try? await connection.deleteQueue(node.configuration.deadLetter)
        try? await connection.deleteExchange(node.configuration.deadLetter)
        await connection.close()
    }
}
