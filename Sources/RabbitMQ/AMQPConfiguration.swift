/// How to reach the broker and how to behave when the connection is lost.
public struct AMQPConfiguration: Sendable {
    /// Nodes tried in turn, on first connect and on every recovery (a cluster's nodes, or one broker).
    public var endpoints: [AMQPEndpoint]
    /// Certificates for `amqps://` endpoints; peer and hostname verification are on by default.
    public var tls: AMQPTLSConfiguration
    /// Heartbeat requested from the broker, in seconds (0 turns heartbeats off); a URL's `heartbeat` wins.
    public var heartbeatSeconds: Int
    /// Name shown for this connection in the management UI and in the broker's log.
    public var connectionName: String
    /// Longest wait for TCP, TLS and the AMQP handshake with one node.
    public var connectTimeout: Duration
    /// Delay between recovery attempts.
    public var reconnectBackoff: ReconnectBackoff
    /// Longest wait for a publish's confirm, counted from the publish (also while a resource alarm
    /// blocks publishing); then it fails with a retryable ``AMQPError/Code/timeout``.
    public var confirmTimeout: Duration

    public init(
        endpoints: [AMQPEndpoint],
        tls: AMQPTLSConfiguration = AMQPTLSConfiguration(),
        heartbeatSeconds: Int = 30,
        connectionName: String = "checkout-worker",
        connectTimeout: Duration = .seconds(10),
        reconnectBackoff: ReconnectBackoff = ReconnectBackoff(),
        confirmTimeout: Duration = .seconds(30)
    ) {
        self.endpoints = endpoints
        self.tls = tls
        self.heartbeatSeconds = heartbeatSeconds
        self.connectionName = connectionName
        self.connectTimeout = connectTimeout
        self.reconnectBackoff = reconnectBackoff
        self.confirmTimeout = confirmTimeout
    }

    /// Parses comma-separated URLs, as `CHECKOUT_AMQP_URL` gives them.
    public init(urls: String, tls: AMQPTLSConfiguration = AMQPTLSConfiguration()) throws(AMQPError) {
        self.init(endpoints: try AMQPEndpoint.list(urls), tls: tls)
    }
}

/// TLS settings for `amqps://` endpoints. TLS 1.2 is the minimum version.
public struct AMQPTLSConfiguration: Sendable, Hashable {
    /// PEM file of the certificate authorities to trust; the system's trust store when nil.
    public var caFile: String?
    /// PEM client certificate, for brokers that require one (with ``keyFile``).
    public var certificateFile: String?
    public var keyFile: String?
    public var verifyPeer: Bool
    public var verifyHostname: Bool

    public init(
        caFile: String? = nil, certificateFile: String? = nil, keyFile: String? = nil,
        verifyPeer: Bool = true, verifyHostname: Bool = true
    ) {
        self.caFile = caFile
        self.certificateFile = certificateFile
        self.keyFile = keyFile
        self.verifyPeer = verifyPeer
        self.verifyHostname = verifyHostname
    }
}
