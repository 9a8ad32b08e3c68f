import CheckoutMessaging
import RabbitMQ

/// A command as a chaos run's client publishes it.
struct ChaosCommand: Sendable {
    /// The command's own id: the `correlation_id` its answer carries, and its `message_id` unless it
    /// re-uses another command's (``messageID``).
    let id: String
    let kind: CommandKind
    let cart: String
    let body: String
    /// Readable, but rejected as `invalid-request` before its cart is looked at; the rejection is stored.
    var breaksRuleOfForm = false
    /// The `message_id` it goes out with: its ``id``, or another command's id with this other body.
    var messageID: String
    /// Hostile properties the worker must take in its stride (``HostileProperties``).
    var hostile: HostileProperties?
    /// The one reason it must be rejected with, whatever the state: `duplicate-message-id` for a re-used id.
    var expectedReason: String?

    init(id: String, kind: CommandKind, cart: String, body: String) {
        self.id = id
        self.kind = kind
        self.cart = cart
        self.body = body
        messageID = id
    }

    /// Re-uses `other`'s `message_id` for this body: the worker must answer `duplicate-message-id`.
    func reusing(idOf other: ChaosCommand) -> ChaosCommand {
        var command = self
        command.messageID = other.messageID
        command.expectedReason = "duplicate-message-id"
        return command
    }
}

/// Properties and headers a client can send on a valid command that the worker reads or passes on,
/// none of which may change the command's effect: timestamps at the ends of their range, the headers
/// the worker reads with the wrong type, a retry count the client set itself, tables nested deeply
/// (but within the broker's and the worker's limit).
enum HostileProperties: Int, CaseIterable, Sendable {
    case timestampZero, timestampMaximum, retryCountAsString, clientRetryCount, routingKeyHeaderAsBytes, deepNesting, traceHeadersWrongType

    func apply(to properties: inout AMQPProperties) {
        var headers = properties.headers ?? [:]
        switch self {
        case .timestampZero: properties.timestamp = AMQPTimestamp(secondsSince1970: 0)
        case .timestampMaximum: properties.timestamp = AMQPTimestamp(secondsSince1970: .max)
        case .retryCountAsString: headers[RetryHeaders.retryCount] = .string("many")
        // As many as the run's retry delays: the worker believes only counts it signed, so the command
        // still gets every retry (one that hits a fault and then gives up is a violation).
        case .clientRetryCount: headers[RetryHeaders.retryCount] = .int64(6)
        case .routingKeyHeaderAsBytes: headers[RetryHeaders.originalRoutingKey] = .bytes([0xFF, 0xFE])
        case .deepNesting:
            var value: AMQPFieldValue = .string("bottom")
            for level in 0..<(AMQPDelivery.maximumHeaderDepth - 2) {
                value = level % 2 == 0 ? .table(["level-\(level)": value]) : .array([value, .int64(Int64(level))])
            }
            headers["x-chaos-nested"] = value
        case .traceHeadersWrongType:
            headers["traceparent"] = .int64(-1)
            headers["tracestate"] = .table(["a": .double(-.greatestFiniteMagnitude)])
        }
        properties.headers = headers
    }
}
