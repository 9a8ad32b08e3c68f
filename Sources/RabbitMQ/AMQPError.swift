/// An error of the RabbitMQ transport, with a code to branch on and the broker's or library's own text.
///
/// `description` is safe to log (no credentials); ``isRetryable`` tells callers whether trying the same
/// operation again later can succeed (the connection will be recovered) or never will.
public struct AMQPError: Error, Sendable, Hashable, CustomStringConvertible {
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        public var description: String { name }

        /// A broker URL that cannot be parsed.
        public static let invalidURL = Code("invalid-url")
        /// TCP or TLS connection could not be opened, or broke.
        public static let connectionFailed = Code("connection-failed")
        /// The broker refused the credentials or the virtual host.
        public static let authenticationFailed = Code("authentication-failed")
        /// TLS could not be set up: a certificate file, peer or hostname verification.
        public static let tls = Code("tls")
        /// The connection was lost while the operation was in flight; it may or may not have reached the broker.
        public static let connectionLost = Code("connection-lost")
        /// The broker closed the channel (for example a declare with different arguments, or a missing exchange).
        public static let channelClosed = Code("channel-closed")
        /// The broker answered a publish with basic.nack: it did not take responsibility for the message.
        public static let publishNacked = Code("publish-nacked")
        /// A mandatory publish matched no queue and came back with basic.return.
        public static let unroutable = Code("unroutable")
        /// The broker did not answer within the time allowed.
        public static let timeout = Code("timeout")
        /// The connection was closed by the application.
        public static let closed = Code("closed")
        /// librabbitmq reported something this layer does not expect.
        public static let protocolError = Code("protocol-error")
    }

    public let code: Code
    /// What happened, in words an operator can act on, including the broker's reply text when there is one.
    public let message: String
    /// AMQP reply code from the broker (e.g. 404, 406, 320), when the broker sent one.
    public let replyCode: Int?

    public init(code: Code, message: String, replyCode: Int? = nil) {
        self.code = code
        self.message = message
        self.replyCode = replyCode
    }

    /// Whether the same operation can succeed later (after recovery), as opposed to failing every time.
    public var isRetryable: Bool {
        switch code {
        case .connectionFailed, .connectionLost, .timeout, .publishNacked: true
        case .channelClosed: replyCode.map { $0 == 320 || $0 == 541 || $0 == 504 } ?? true
        default: false
        }
    }

    public var description: String {
        if let replyCode { return "\(code) (\(replyCode)): \(message)" }
        return "\(code): \(message)"
    }

    /// What every operation on a connection after ``AMQPConnection/close()`` fails with.
    static let closedByApplication = AMQPError(code: .closed, message: "the connection was closed by the application")

    static func invalidURL(_ url: String, reason: String) -> AMQPError {
        let shown = url.contains("@") ? "(URL with credentials hidden)" : "'\(url)'"
        return AMQPError(code: .invalidURL, message: "broker URL \(shown) is invalid: \(reason)")
    }
}
