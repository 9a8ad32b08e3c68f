import Foundation
import RabbitMQ

/// Sends copies of a command to where failed commands go: a retry queue, or the dead-letter exchange.
///
/// Both publishes are mandatory and confirmed, and the caller acks the original only afterwards, so a
/// crash in between leaves at worst a duplicate, which the processed-command store absorbs.
///
/// A copy carries the client's properties and body and the worker's headers. When the client's headers
/// leave no room for those in one frame, and for what the broker adds to the copy later, the copy keeps
/// only the worker's headers, and says so. A copy is persistent whatever the client chose: once the
/// original is acked, the copy is all there is, and a transient one would not survive a broker restart.
/// For the same reason it has no `expiration`, and it leaves out what would send it elsewhere or have the
/// broker refuse it (see ``copy(_:adding:)``).
struct FailureRouter: Sendable {
    let broker: any MessageBroker
    let configuration: MessagingConfiguration
    let signer: RetrySigner
    let now: @Sendable () -> Date

    /// Parks the command in the retry queue of its next retry; the broker sends it back to its work
    /// queue when the delay is over. Returns how many client headers the copy had to drop.
    ///
    /// - Parameter counting: Whether this is a retry of the command's own (the next delay, one retry
    ///   fewer left), or a wait for another worker's claim (the first delay, the count unchanged).
    @discardableResult
    func retry(_ delivery: some MessageDelivery, _ command: CommandEnvelope, counting: Bool = true) async throws -> Int {
        try await park(
            delivery, command, retryCount: command.retryCount + (counting ? 1 : 0),
            queue: configuration.retryQueue(for: command.kind, retry: counting ? command.retryCount : 0))
    }

    /// Parks a command already given up in the first retry queue, its count past the last retry and the
    /// dead letter's `detail` with it, for a wait before its answer (see ``isGivenUp(_:)``).
    func waitAfterGivingUp(_ delivery: some MessageDelivery, _ command: CommandEnvelope, detail: String) async throws {
        _ = try await park(
            delivery, command, retryCount: configuration.retryDelays.delays.count + 1,
            queue: configuration.retryQueue(for: command.kind, retry: 0),
            adding: [RetryHeaders.errorDetail: Self.detail(detail)])
    }

    /// Whether the command was given up already and waits for its answer: its signed count is past the last retry.
    func isGivenUp(_ command: CommandEnvelope) -> Bool {
        command.retryCount > configuration.retryDelays.delays.count
    }

    private func park(
        _ delivery: some MessageDelivery, _ command: CommandEnvelope, retryCount: Int, queue: String, adding extra: AMQPFieldTable = [:]
    ) async throws -> Int {
        let (properties, dropped) = copy(
            delivery.properties,
            adding: extra.merging([
                RetryHeaders.retryCount: .int64(Int64(retryCount)),
                RetryHeaders.retrySignature: .string(signer.signature(messageID: command.messageID, retryCount: retryCount)),
                RetryHeaders.originalRoutingKey: .string(command.routingKey),
            ]) { _, worker in worker })
        try await broker.publish(AMQPMessage(exchange: "", routingKey: queue, properties: properties, body: delivery.body, mandatory: true))
        return dropped.count
    }

    /// Publishes the message unchanged but for the headers that say why, under its original routing key.
    ///
    /// The original routing key is the command's, which a retry carries in a header the worker signed;
    /// a message that is no command keeps the one it was delivered with, whatever its headers claim. If
    /// the broker cannot be sent the client's properties at all, the dead letter keeps the body, the
    /// message id and the worker's headers.
    ///
    /// - Parameter command: The command, when the message was one; a command given up and then held for its
    ///   answer (``waitAfterGivingUp(_:_:detail:)``) is dead-lettered with the count of its last retry.
    func deadLetter(_ delivery: some MessageDelivery, _ command: CommandEnvelope? = nil, reason: String, detail: String) async throws {
        let routingKey = command?.routingKey ?? delivery.routingKey
        var added: AMQPFieldTable = [
            RetryHeaders.errorReason: .string(reason),
            RetryHeaders.errorDetail: Self.detail(detail),
            RetryHeaders.originalRoutingKey: .string(routingKey),
            RetryHeaders.deadLetteredAt: .timestamp(AMQPTimestamp(now())),
        ]
        if let command, isGivenUp(command) {
            let retries = configuration.retryDelays.delays.count
            added[RetryHeaders.retryCount] = .int64(Int64(retries))
            added[RetryHeaders.retrySignature] = .string(signer.signature(messageID: command.messageID, retryCount: retries))
        }
        var (properties, dropped) = copy(delivery.properties, adding: added)
        if !dropped.isEmpty {
            let names = dropped.sorted().joined(separator: ", ")
            added[RetryHeaders.errorDetail] = Self.detail(
                "\(Self.clipped(detail, toBytes: 500)); headers dropped to fit the frame: \(names)")
            properties.headers = added
        }
        do {
            try await broker.publish(
                AMQPMessage(
                    exchange: configuration.deadLetter, routingKey: routingKey, properties: properties,
                    body: delivery.body, mandatory: true))
        } catch let error as AMQPError where error.code == .protocolError {
            added[RetryHeaders.errorDetail] = Self.detail(
                "\(Self.clipped(detail, toBytes: 500)); properties dropped, they could not be sent: \(error.message)")
            let bare = AMQPProperties(headers: added, deliveryMode: .persistent, messageID: delivery.properties.messageID)
            try await broker.publish(
                AMQPMessage(
                    exchange: configuration.deadLetter, routingKey: routingKey, properties: bare,
                    body: delivery.body, mandatory: true))
        }
    }

    /// `x-error-detail`: at most a thousand bytes of `text`.
    private static func detail(_ text: String) -> AMQPFieldValue {
        .string(clipped(text, toBytes: 1000))
    }

    /// At most `limit` bytes of `text`, cut between Unicode scalars: a header's size is its bytes, and
    /// what a client wrote (header names) can pack hundreds of bytes into one character of combining marks.
    private static func clipped(_ text: String, toBytes limit: Int) -> String {
        var bytes = 0
        return String(
            text.unicodeScalars.prefix { scalar in
                bytes += scalar.utf8.count
                return bytes <= limit
            })
    }

    /// The client's properties, ``AMQPProperties/republishable``, with `added` headers; when that does
    /// not fit in a frame with room to spare, only `added`, and the names of the client headers left out.
    private func copy(_ properties: AMQPProperties, adding added: AMQPFieldTable) -> (AMQPProperties, dropped: [String]) {
        var copy = properties.republishable
        copy.deliveryMode = .persistent
        let client = copy.headers ?? [:]
        copy.headers = client.merging(added) { _, new in new }
        guard copy.encodedByteCount > broker.maximumRedeliverablePropertiesByteCount else { return (copy, []) }
        copy.headers = added
        let dropped = client.keys.filter { added[$0] == nil }
        return (copy, dropped)
    }
}
