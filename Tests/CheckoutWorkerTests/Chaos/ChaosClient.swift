import CheckoutMessaging
import Foundation
import RabbitMQ
import Testing

/// The outside world of a chaos run: publishes commands as shop clients do, publishing again when
/// the broker is away or an answer is late, and collects every event and dead letter on durable
/// queues, so nothing is missed while the broker or a connection is down.
final class ChaosClient: Sendable {
    static let eventQueue = "chaos.observed-events"

    let events: EventJournal
    let deadLetters: MessageInbox
    let sent = SentMessages()
    private let connection: AMQPConnection
    private let messaging: MessagingConfiguration
    private let consumers: Task<Void, Never>
    /// How long to wait for an answer before publishing the command again.
    private let resendAfter: Duration = .seconds(15)
    /// How long to keep publishing again before giving a command up as unanswered.
    private let giveUpAfter: Duration = .seconds(60)

    /// Connects to `urls`, declares the workers' topology (so commands can wait for a worker) and
    /// the event queue, and starts consuming events and dead letters.
    init(urls: String, messaging: MessagingConfiguration) async throws {
        var configuration = try AMQPConfiguration(urls: urls)
        configuration.connectionName = "chaos-client"
        configuration.heartbeatSeconds = 5
        configuration.reconnectBackoff = ReconnectBackoff(initialDelay: .milliseconds(100), maximumDelay: .seconds(1))
        let connection = try await AMQPConnection.connect(configuration, logger: TestWorld.logger)
        let events = EventJournal()
        let deadLetters = MessageInbox()
        do {
            try await connection.declare(CheckoutTopology.make(messaging))
            try await connection.declare(AMQPTopology(
                queues: [.init(name: Self.eventQueue, arguments: ["x-queue-type": .string(messaging.queueType.rawValue)])],
                bindings: [.init(queue: Self.eventQueue, exchange: messaging.eventsExchange, routingKey: "#")]
            ))
            let eventStream = try await connection.consume(queue: Self.eventQueue, prefetch: 1000)
            let deadLetterStream = try await connection.consume(queue: messaging.deadLetter, prefetch: 100)
            consumers = Task {
                await withTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for await delivery in eventStream {
                            events.append(ObservedEvent(delivery, arrival: .now))
                            delivery.ack()
                        }
                    }
                    group.addTask {
                        for await delivery in deadLetterStream {
                            deadLetters.append(delivery)
                            delivery.ack()
                        }
                    }
                }
            }
        } catch {
            await connection.close()
            throw error
        }
        self.connection = connection
        self.messaging = messaging
        self.events = events
        self.deadLetters = deadLetters
    }

    /// Publishes the command and waits for its answer, publishing it again (same id) when none
    /// comes in time; nil when it stayed unanswered.
    func ask(_ command: ChaosCommand) async throws -> ObservedEvent? {
        try await publish(command)
        let giveUp = ContinuousClock.now + giveUpAfter
        var resend = ContinuousClock.now + resendAfter
        while true {
            if let answer = events.answer(to: command.id) { return answer }
            let now = ContinuousClock.now
            if now >= giveUp { return nil }
            if now >= resend {
                sent.recordResend()
                try await publish(command)
                resend = now + resendAfter
            }
            try await Task.sleep(for: .milliseconds(25))
        }
    }

    /// Publishes the command once (a client's retry when called again), persistent and confirmed.
    func publish(_ command: ChaosCommand) async throws {
        let properties = AMQPProperties(contentType: "application/json", deliveryMode: .persistent, messageID: command.id)
        try await publish(AMQPMessage(exchange: messaging.commandsExchange, routingKey: command.kind.routingKey, properties: properties, body: Array(command.body.utf8), mandatory: true))
        sent.record(command)
    }

    func publish(_ message: MalformedMessage) async throws {
        let properties = AMQPProperties(
            contentType: "application/json",
            headers: [MalformedMessage.tagHeader: .string(message.tag)],
            deliveryMode: .persistent,
            messageID: message.messageID
        )
        try await publish(AMQPMessage(exchange: messaging.commandsExchange, routingKey: message.routingKey, properties: properties, body: message.body, mandatory: true))
        sent.record(message)
    }

    /// Publishes until the broker confirms, across connection losses and broker restarts, for at most two minutes.
    private func publish(_ message: AMQPMessage) async throws {
        let deadline = ContinuousClock.now + .seconds(120)
        while true {
            do {
                return try await Deadline.run("publishing \(message.properties.messageID ?? "a message")", within: .seconds(30)) { [connection] in
                    try await connection.publish(message)
                }
            } catch let error as AMQPError where error.isRetryable && ContinuousClock.now < deadline {
                sent.recordPublishRetry()
                try await Task.sleep(for: .milliseconds(200))
            }
        }
    }

    func close() async {
        consumers.cancel()
        await connection.close()
    }
}
