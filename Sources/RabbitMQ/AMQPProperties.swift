/// The basic-class properties of a message, with `headers` as a nested field table.
public struct AMQPProperties: Sendable, Hashable {
    public enum DeliveryMode: UInt8, Sendable {
        case transient = 1
        case persistent = 2
    }

    public var contentType: String?
    public var contentEncoding: String?
    public var headers: AMQPFieldTable?
    public var deliveryMode: DeliveryMode?
    public var priority: UInt8?
    public var correlationID: String?
    public var replyTo: String?
    public var expiration: String?
    public var messageID: String?
    public var timestamp: AMQPTimestamp?
    public var type: String?
    public var userID: String?
    public var appID: String?

    public init(
        contentType: String? = nil,
        contentEncoding: String? = nil,
        headers: AMQPFieldTable? = nil,
        deliveryMode: DeliveryMode? = nil,
        priority: UInt8? = nil,
        correlationID: String? = nil,
        replyTo: String? = nil,
        expiration: String? = nil,
        messageID: String? = nil,
        timestamp: AMQPTimestamp? = nil,
        type: String? = nil,
        userID: String? = nil,
        appID: String? = nil
    ) {
        self.contentType = contentType
        self.contentEncoding = contentEncoding
        self.headers = headers
        self.deliveryMode = deliveryMode
        self.priority = priority
        self.correlationID = correlationID
        self.replyTo = replyTo
        self.expiration = expiration
        self.messageID = messageID
        self.timestamp = timestamp
        self.type = type
        self.userID = userID
        self.appID = appID
    }
}
