public import CheckoutDomain
import Crypto
import Foundation
import RabbitMQ

/// What the worker needs from a command message besides its body: its identity, where its result
/// goes, and how often it was tried.
public struct CommandEnvelope: Sendable {
    public let kind: CommandKind
    /// The command's `message_id`.
    public let messageID: String
    /// Echoed on every event; the `message_id` when the client set none.
    public let correlationID: String
    public let replyTo: String?
    /// The routing key the client published with; retries travel under other keys and keep it in a header.
    public let routingKey: String
    /// How many retries came before this delivery: `x-retry-count` when a worker signed it, else 0.
    public let retryCount: Int
    /// The W3C `traceparent` and `tracestate` headers, if the client sent them.
    public let traceHeaders: [String: String]
    /// SHA-256 of the body: a command re-sent as it was has the same, one re-using its `message_id` does not.
    public let digest: CommandDigest

    /// Reads the envelope of a delivery from `kind`'s queue, or says why it is not a command.
    /// - Parameter maximumPropertiesByteCount: What a command's properties may take to stay readable
    ///   when redelivered (``MessageBroker/maximumRedeliverablePropertiesByteCount``).
    public init(
        _ delivery: some MessageDelivery, kind: CommandKind, configuration: MessagingConfiguration, signer: RetrySigner,
        maximumPropertiesByteCount: Int
    ) throws(MalformedCommand) {
        let headers = delivery.properties.headers ?? [:]
        let messageID = delivery.properties.messageID.flatMap { $0.isEmpty ? nil : $0 }
        // A copy the worker parked in a retry queue comes back under the queue's name, with its count
        // signed and the routing key it came with in a header; a client's header is not believed.
        let claimedRetryCount = max(headers[RetryHeaders.retryCount]?.intValue ?? 0, 0)
        let isWorkersCopy =
            messageID.flatMap { id in
                headers[RetryHeaders.retrySignature]?.stringValue.map { signer.verifies($0, messageID: id, retryCount: claimedRetryCount) }
            } ?? false
        let routingKey = (isWorkersCopy ? headers[RetryHeaders.originalRoutingKey]?.stringValue : nil) ?? delivery.routingKey
        guard routingKey == kind.routingKey else {
            throw MalformedCommand(.unknownRoutingKey, "routing key '\(routingKey.prefix(255))' is not '\(kind.routingKey)'")
        }
        guard let messageID else {
            throw MalformedCommand(.missingMessageID, "the message has no message_id property")
        }
        if let contentType = delivery.properties.contentType, !Self.isJSON(contentType) {
            throw MalformedCommand(.unsupportedContentType, "content_type must be application/json")
        }
        guard delivery.isBodyComplete, delivery.bodySize <= configuration.maximumBodyBytes else {
            throw MalformedCommand(
                .bodyTooLarge,
                "the body has \(delivery.bodySize) bytes, over the limit of \(configuration.maximumBodyBytes); the dead letter keeps the first \(delivery.body.count)"
            )
        }
        guard !delivery.headersTruncated else {
            throw MalformedCommand(
                .headersTooDeep,
                "headers nest tables or arrays deeper than \(AMQPDelivery.maximumHeaderDepth) levels; the dead letter has them cut there")
        }
        // A worker's copy left that room when it was made, and the broker has used some of it since.
        let size = delivery.properties.encodedByteCount
        guard isWorkersCopy || size <= maximumPropertiesByteCount else {
            throw MalformedCommand(
                .headersTooLarge,
                "the properties take \(size) bytes, over the \(maximumPropertiesByteCount) that leave room for the headers a broker adds on redelivery"
            )
        }
        let replyTo = delivery.properties.replyTo.flatMap { $0.isEmpty ? nil : $0 }
        if let replyTo, configuration.isOwnQueue(replyTo) {
            throw MalformedCommand(.invalidReplyTo, "reply_to names one of the worker's own queues")
        }
        // RabbitMQ decodes such a name into its consumer's node and process when routing the reply, and
        // closes the publisher's connection on one it cannot decode or whose node it does not know: a
        // client could cut every replica's connection in turn, with the deliveries on it.
        if let replyTo, replyTo.hasPrefix(Self.directReplyToPrefix) {
            throw MalformedCommand(
                .invalidReplyTo, "reply_to names a direct reply-to pseudo-queue (amq.rabbitmq.reply-to), which the worker does not answer")
        }
        self.kind = kind
        self.messageID = messageID
        self.correlationID = delivery.properties.correlationID.flatMap { $0.isEmpty ? nil : $0 } ?? messageID
        self.replyTo = replyTo
        self.routingKey = routingKey
        self.retryCount = isWorkersCopy ? claimedRetryCount : 0
        var traceHeaders: [String: String] = [:]
        for (name, limit) in Self.traceHeaderLimits {
            if let value = headers[name]?.stringValue, value.utf8.count <= limit, Self.isTraceText(value) { traceHeaders[name] = value }
        }
        self.traceHeaders = traceHeaders
        self.digest = Self.digest(of: delivery.body)
    }

    /// The names RabbitMQ gives its direct reply-to consumers: `amq.rabbitmq.reply-to.<node and process>.<key>`.
    private static let directReplyToPrefix = "amq.rabbitmq.reply-to."

    /// The longest trace headers passed on, in bytes: W3C's `traceparent` is 55 (later versions may add
    /// fields), and 512 is what W3C asks every vendor to keep of a `tracestate`. A tracer may write a
    /// longer one back out longer still, and an event too large for its frame could not be published.
    private static let traceHeaderLimits = [("traceparent", 256), ("tracestate", 512)]

    /// W3C trace context is printable ASCII, and tabs in `tracestate`'s separators. swift-otel's parser
    /// (swift-w3c-trace-context 1.0) counts a name in bytes and steps back over it in characters: a
    /// `tracestate` whose name holds combining marks made it index before the string's start and trap,
    /// on every replica the command went to.
    private static func isTraceText(_ value: String) -> Bool {
        value.utf8.allSatisfy { (0x20...0x7E).contains($0) || $0 == UInt8(ascii: "\t") }
    }

    /// The body's SHA-256 in lowercase hex.
    private static func digest(of body: [UInt8]) -> CommandDigest {
        CommandDigest(SHA256.hash(data: body).lowercaseHex)
    }

    /// `application/json` in any case, with or without parameters such as `charset=utf-8`, around
    /// optional spaces and tabs; compared byte by byte, since Foundation's trimming is slow on Linux.
    private static func isJSON(_ contentType: String) -> Bool {
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        let mediaType = contentType.utf8.prefix { $0 != UInt8(ascii: ";") }.drop(while: isSpace)
        let trimmed = mediaType.prefix(mediaType.count - mediaType.reversed().prefix(while: isSpace).count)
        let lowercased = trimmed.lazy.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 + 32 : $0 }
        return lowercased.elementsEqual("application/json".utf8)
    }
}
