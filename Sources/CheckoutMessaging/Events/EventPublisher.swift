public import Foundation
import JSONWriting
public import Metrics
import RabbitMQ
public import Tracing

/// Publishes result events as the contract lists them, and waits for the broker's confirms.
///
/// Every event goes to the events exchange under its type, and also to the command's `reply_to` queue
/// through the default exchange when one is set. Neither publish is mandatory: nobody listening is
/// the clients' choice, not a failure of the command. So is a `reply_to` queue that refuses the answer
/// (full, with `x-overflow: reject-publish`): counted in `checkout_replies_refused_total{event}`, and
/// not retried, which would publish the event again and again and dead-letter a command that succeeded.
///
/// Times each publish until its confirm as `checkout_publish_confirm_seconds{event}`: a command is
/// acked only after that, so a slow or overloaded broker shows there first.
public struct EventPublisher: Sendable {
    private let broker: any MessageBroker
    private let exchange: String
    private let tracer: any Tracer
    private let now: @Sendable () -> Date
    private let confirmLatency: [EventType: Timer]
    private let metrics: any MetricsFactory

    /// - Parameters:
    ///   - tracer: Writes the current span's trace context into the event's headers.
    ///   - metrics: Where the publish-confirm latency is recorded.
    public init(
        broker: any MessageBroker,
        exchange: String,
        tracer: any Tracer,
        metrics: any MetricsFactory,
        now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.broker = broker
        self.exchange = exchange
        self.tracer = tracer
        self.now = now
        var confirmLatency: [EventType: Timer] = [:]
        for type in EventType.allCases {
            confirmLatency[type] = Timer(
                label: "checkout_publish_confirm_seconds", dimensions: [("event", type.rawValue)], factory: metrics)
        }
        self.confirmLatency = confirmLatency
        self.metrics = metrics
    }

    /// Publishes in a producer span of its own, whose context the event's `traceparent` carries.
    func publish(_ event: some EventBody, as type: EventType, for command: CommandEnvelope) async throws {
        let messageID = type.messageID(forCommand: command.messageID)
        try await tracer.withSpan("\(type.rawValue) publish", ofKind: .producer) { span in
            if span.isRecording {
                span.attributes["messaging.system"] = "rabbitmq"
                span.attributes["messaging.operation.type"] = "publish"
                span.attributes["messaging.destination.name"] = exchange
                span.attributes["messaging.rabbitmq.destination.routing_key"] = type.rawValue
                span.attributes["messaging.message.id"] = messageID
                span.attributes["messaging.message.conversation_id"] = command.correlationID
            }
            try await publish(event, as: type, messageID: messageID, for: command)
        }
    }

    private func publish(_ event: some EventBody, as type: EventType, messageID: String, for command: CommandEnvelope) async throws {
        var headers: AMQPFieldTable = ["causation_id": .string(command.messageID)]
        tracer.inject(InstrumentationContext.current ?? .topLevel, into: &headers, using: AMQPHeadersInjector())
        let properties = AMQPProperties(
            contentType: "application/json",
            headers: headers,
            deliveryMode: .persistent,
            correlationID: command.correlationID,
            messageID: messageID,
            timestamp: AMQPTimestamp(now()),
            type: type.rawValue
        )
        var json = JSONWriter()
        event.write(to: &json)
        let body = json.bytes
        let toExchange = AMQPMessage(exchange: exchange, routingKey: type.rawValue, properties: properties, body: body)
        guard let replyTo = command.replyTo else {
            return try await publishTimed(toExchange, as: type)
        }
        async let published: Void = publishTimed(toExchange, as: type)
        try await publishTimed(AMQPMessage(exchange: "", routingKey: replyTo, properties: properties, body: body), as: type, isReply: true)
        try await published
    }

    /// Publishes and records how long the confirm took; a failed publish is counted by its error's code
    /// (`checkout_publish_failures_total`), not timed, except a reply the broker refused, which is the
    /// client's queue's doing (`checkout_replies_refused_total`) and not thrown. Failures are rare, so
    /// their counters are made then.
    private func publishTimed(_ message: AMQPMessage, as type: EventType, isReply: Bool = false) async throws {
        let start = ContinuousClock.now
        do {
            try await broker.publish(message)
        } catch let error as AMQPError where isReply && error.code == .publishNacked {
            Counter(label: "checkout_replies_refused_total", dimensions: [("event", type.rawValue)], factory: metrics).increment()
            return
        } catch {
            let code = (error as? AMQPError)?.code.description ?? "unexpected"
            Counter(label: "checkout_publish_failures_total", dimensions: [("event", type.rawValue), ("code", code)], factory: metrics)
                .increment()
            throw error
        }
        confirmLatency[type]?.record(duration: ContinuousClock.now - start)
    }
}
