import CheckoutMessaging
import Foundation
import RabbitMQ
import Testing

/// The outside world of a chaos run: publishes commands as shop clients do and collects every event
/// and dead letter on durable queues, so nothing is missed while the broker or a connection is down.
///
/// It never publishes a command again on its own: a command that the broker or a worker loses stays
/// unanswered, and the run reports it as a violation. Only publishing is retried, until
/// the broker confirms, since an unconfirmed publish is not yet the broker's. The one exception is
/// named: ``askResendingAfterTimeout(_:)``, a client that publishes again after a short timeout, whose
/// commands the invariants check to be answered by one replayed event, not rescued.
final class ChaosClient: Sendable {
    static let eventQueue = "chaos.observed-events"

    let events: EventJournal
    let deadLetters: MessageInbox
    let sent = SentMessages()
    private let connection: AMQPConnection
    private let messaging: MessagingConfiguration
    private let consumers: Task<Void, Never>
    /// How long a journey waits for an answer before it goes on without one (the command then
    /// stays unanswered, a violation): longer than the run's retries and outages together.
    private let answerTimeout: Duration = .seconds(120)
    /// How long the named client resend waits for an answer before it publishes again.
    static let clientResendTimeout: Duration = .milliseconds(300)

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
            try await connection.declare(
                AMQPTopology(
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

    /// Publishes the command once and waits for its answer; nil when none came within ``answerTimeout``.
    func ask(_ command: ChaosCommand) async throws -> ObservedEvent? {
        try await publish(command)
        return try await answer(to: command, within: answerTimeout)
    }

    /// The named client resend: publishes the command, and publishes it again (same id and body)
    /// when no answer came within ``clientResendTimeout``, as a real client does after a timeout.
    func askResendingAfterTimeout(_ command: ChaosCommand) async throws -> ObservedEvent? {
        try await publish(command)
        if let reply = try await answer(to: command, within: Self.clientResendTimeout) { return reply }
        sent.recordClientResend(command.id)
        try await publish(command)
        return try await answer(to: command, within: answerTimeout)
    }

    private func answer(to command: ChaosCommand, within timeout: Duration) async throws -> ObservedEvent? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let reply = events.answer(to: command.id) { return reply }
            try await Task.sleep(for: .milliseconds(25))
        }
        return events.answer(to: command.id)
    }

    /// Publishes the command once (a client's deliberate duplicate when called again), persistent and
    /// confirmed, with its ``ChaosCommand/messageID`` and its own id as `correlation_id`.
    func publish(_ command: ChaosCommand) async throws {
        var properties = AMQPProperties(
            contentType: "application/json", deliveryMode: .persistent, correlationID: command.id, messageID: command.messageID)
        command.hostile?.apply(to: &properties)
        try await publish(
            AMQPMessage(
                exchange: messaging.commandsExchange, routingKey: command.kind.routingKey, properties: properties,
                body: Array(command.body.utf8), mandatory: true))
        sent.record(command)
    }

    func publish(_ message: MalformedMessage) async throws {
        let properties = AMQPProperties(
            contentType: "application/json",
            headers: message.headers,
            deliveryMode: .persistent,
            messageID: message.messageID
        )
        try await publish(
            AMQPMessage(
                exchange: messaging.commandsExchange, routingKey: message.routingKey, properties: properties, body: message.body,
                mandatory: true))
        sent.record(message)
    }

    /// Publishes until the broker confirms, across connection losses and broker restarts, for at most two minutes.
    private func publish(_ message: AMQPMessage) async throws {
        let deadline = ContinuousClock.now + .seconds(120)
        while true {
            do {
                return try await Deadline.run("publishing \(message.properties.messageID ?? "a message")", within: .seconds(30)) {
                    [connection] in
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
