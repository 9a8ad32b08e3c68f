import Foundation
import RabbitMQ

/// Sends copies of a command to where failed commands go: a retry queue, or the dead-letter exchange.
///
/// Both publishes are mandatory and confirmed, and the caller acks the original only afterwards, so a
/// crash in between leaves at worst a duplicate, which the processed-command store absorbs.
struct FailureRouter: Sendable {
    let connection: AMQPConnection
    let configuration: MessagingConfiguration
    let now: @Sendable () -> Date

    /// Parks the command in the retry queue of its next retry; the broker sends it back to its work
    /// queue when the delay is over.
    func retry(_ delivery: AMQPDelivery, _ command: CommandEnvelope) async throws {
        var properties = delivery.properties
        var headers = properties.headers ?? [:]
        headers[RetryHeaders.retryCount] = .int64(Int64(command.retryCount + 1))
        headers[RetryHeaders.originalRoutingKey] = .string(command.routingKey)
        properties.headers = headers
        let queue = configuration.retryQueue(for: command.kind, retry: command.retryCount)
        try await connection.publish(AMQPMessage(exchange: "", routingKey: queue, properties: properties, body: delivery.body, mandatory: true))
    }

    /// Publishes the message unchanged but for the headers that say why, under its original routing key.
    func deadLetter(_ delivery: AMQPDelivery, reason: String, detail: String) async throws {
        var properties = delivery.properties
        var headers = properties.headers ?? [:]
        let routingKey = headers[RetryHeaders.originalRoutingKey]?.stringValue ?? delivery.routingKey
        headers[RetryHeaders.errorReason] = .string(reason)
        headers[RetryHeaders.errorDetail] = .string(String(detail.prefix(1000)))
        headers[RetryHeaders.originalRoutingKey] = .string(routingKey)
        headers[RetryHeaders.deadLetteredAt] = .timestamp(now())
        properties.headers = headers
        try await connection.publish(AMQPMessage(
            exchange: configuration.deadLetter,
            routingKey: routingKey,
            properties: properties,
            body: delivery.body,
            mandatory: true
        ))
    }
}
