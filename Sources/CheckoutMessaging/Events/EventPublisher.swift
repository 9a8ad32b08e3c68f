public import Foundation
public import RabbitMQ
public import Tracing

/// Publishes result events as the contract lists them, and waits for the broker's confirms.
///
/// Every event goes to the events exchange under its type, and also to the command's `reply_to` queue
/// through the default exchange when one is set. Neither publish is mandatory: nobody listening is
/// the clients' choice, not a failure of the command.
public struct EventPublisher: Sendable {
    private let connection: AMQPConnection
    private let exchange: String
    private let tracer: any LegacyTracer
    private let now: @Sendable () -> Date

    /// - Parameter tracer: Writes the current span's trace context into the event's headers.
    public init(connection: AMQPConnection, exchange: String, tracer: any LegacyTracer, now: @escaping @Sendable () -> Date = Date.init) {
        self.connection = connection
        self.exchange = exchange
        self.tracer = tracer
        self.now = now
    }

    func publish(_ event: some Encodable, as type: EventType, for command: CommandEnvelope) async throws {
        var headers: AMQPFieldTable = ["causation_id": .string(command.messageID)]
        tracer.inject(InstrumentationContext.current ?? .topLevel, into: &headers, using: AMQPHeadersInjector())
        let properties = AMQPProperties(
            contentType: "application/json",
            headers: headers,
            deliveryMode: .persistent,
            correlationID: command.correlationID,
            messageID: type.messageID(forCommand: command.messageID),
            timestamp: now(),
            type: type.rawValue
        )
        let body = try Array(EventEncoder.encode(event))
        let toExchange = AMQPMessage(exchange: exchange, routingKey: type.rawValue, properties: properties, body: body)
        guard let replyTo = command.replyTo else {
            return try await connection.publish(toExchange)
        }
        async let published: Void = connection.publish(toExchange)
        try await connection.publish(AMQPMessage(exchange: "", routingKey: replyTo, properties: properties, body: body))
        try await published
    }
}
