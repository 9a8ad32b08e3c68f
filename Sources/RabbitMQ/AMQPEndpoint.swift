/// One broker node to connect to, parsed from an `amqp://` or `amqps://` URL.
///
/// Follows RabbitMQ's URI spec: `amqp[s]://user:password@host:port/vhost?heartbeat=10&connection_name=x`,
/// with user, password and vhost percent-encoded (`%2F` is the default vhost `/`).
public struct AMQPEndpoint: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var user: String
    public var password: String
    public var virtualHost: String
    public var usesTLS: Bool
    /// Heartbeat requested from the broker, in seconds, when the URL names one.
    public var heartbeatSeconds: Int?
    /// Connection name shown in the management UI, when the URL names one.
    public var connectionName: String?

    public init(
        host: String,
        port: Int? = nil,
        user: String = "guest",
        password: String = "guest",
        virtualHost: String = "/",
        usesTLS: Bool = false
    ) {
        self.host = host
        self.port = port ?? (usesTLS ? 5671 : 5672)
        self.user = user
        self.password = password
        self.virtualHost = virtualHost
        self.usesTLS = usesTLS
    }

    /// Parses one URL; throws ``AMQPError/invalidURL`` naming what is wrong.
    public init(url: String) throws(AMQPError) {
        let text = url.trimmingWhitespace()
        let usesTLS: Bool
        let rest: Substring
        if text.hasPrefix("amqps://") {
            usesTLS = true
            rest = text.dropFirst("amqps://".count)
        } else if text.hasPrefix("amqp://") {
            usesTLS = false
            rest = text.dropFirst("amqp://".count)
        } else {
            throw .invalidURL(url, reason: "the scheme must be amqp:// or amqps://")
        }

        let (beforeQuery, query) = rest.splitOnce("?")
        let (authority, path) = beforeQuery.splitOnce("/")
        var user = "guest"
        var password = "guest"
        var hostPort = authority
        if let at = authority.lastIndex(of: "@") {
            let credentials = authority[..<at]
            hostPort = authority[authority.index(after: at)...]
            let (rawUser, rawPassword) = credentials.splitOnce(":")
            user = try Self.percentDecoded(rawUser, in: url)
            if let rawPassword { password = try Self.percentDecoded(rawPassword, in: url) }
        }

        var host = hostPort
        var port: Int? = nil
        if hostPort.hasPrefix("[") {
            guard let close = hostPort.firstIndex(of: "]") else {
                throw .invalidURL(url, reason: "an IPv6 host is missing its closing ]")
            }
            host = hostPort[hostPort.index(after: hostPort.startIndex)..<close]
            let afterHost = hostPort[hostPort.index(after: close)...]
            if afterHost.hasPrefix(":") { port = try Self.port(afterHost.dropFirst(), in: url) }
        } else if let colon = hostPort.lastIndex(of: ":") {
            host = hostPort[..<colon]
            port = try Self.port(hostPort[hostPort.index(after: colon)...], in: url)
        }
        if host.isEmpty { host = "localhost" }

        var virtualHost = "/"
        if let path, !path.isEmpty {
            guard !path.contains("/") else {
                throw .invalidURL(url, reason: "the virtual host must be one path segment; write / as %2F")
            }
            virtualHost = try Self.percentDecoded(path, in: url)
        }

        // The virtual host is an AMQP short string. The login goes in a frame sent before the frame size is
        // agreed, which RabbitMQ bounds by its `initial_frame_max` (4 KiB, 8 KiB since 4.1, raised where OAuth 2
        // tokens are the passwords): past any such bound the broker drops the connection at every attempt,
        // and the worker would wait for it for ever.
        guard virtualHost.utf8.count <= 255 else { throw .invalidURL(url, reason: "the virtual host is over 255 bytes") }
        guard user.utf8.count <= 255 else { throw .invalidURL(url, reason: "the user is over 255 bytes") }
        guard password.utf8.count <= 65_536 else { throw .invalidURL(url, reason: "the password is over 64 KiB") }

        self.init(
            host: String(host), port: port, user: user, password: password,
            virtualHost: virtualHost, usesTLS: usesTLS)

        for pair in (query ?? "").split(separator: "&") where !pair.isEmpty {
            let (key, value) = pair.splitOnce("=")
            let decoded = try Self.percentDecoded(value ?? "", in: url)
            switch key {
            case "heartbeat":
                guard let seconds = Int(decoded), (0...65535).contains(seconds) else {
                    throw .invalidURL(url, reason: "heartbeat must be a number of seconds from 0 to 65535")
                }
                heartbeatSeconds = seconds
            case "connection_name":
                guard decoded.utf8.count <= 255 else {
                    throw .invalidURL(url, reason: "connection_name is over 255 bytes")
                }
                connectionName = decoded
            default:
                break  // RabbitMQ's URI spec lets clients ignore options they do not support.
            }
        }
    }

    /// Parses a comma-separated list of URLs, the nodes of a cluster tried in turn.
    public static func list(_ urls: String) throws(AMQPError) -> [AMQPEndpoint] {
        let parts = urls.split(separator: ",").map { String($0) }.filter { !$0.trimmingWhitespace().isEmpty }
        guard !parts.isEmpty else { throw .invalidURL(urls, reason: "no URL given") }
        var endpoints: [AMQPEndpoint] = []
        for part in parts { endpoints.append(try AMQPEndpoint(url: part)) }
        return endpoints
    }

    /// The URL with the password masked, safe to log.
    public var description: String {
        let scheme = usesTLS ? "amqps" : "amqp"
        let vhost = virtualHost == "/" ? "%2F" : virtualHost
        let hostText = host.contains(":") ? "[\(host)]" : host
        return "\(scheme)://\(user):***@\(hostText):\(port)/\(vhost)"
    }

    private static func port(_ text: Substring, in url: String) throws(AMQPError) -> Int {
        guard let port = Int(text), (1...65535).contains(port) else {
            throw .invalidURL(url, reason: "the port must be a number from 1 to 65535")
        }
        return port
    }

    private static func percentDecoded(_ text: Substring, in url: String) throws(AMQPError) -> String {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(Self.hexValue), let low = iterator.next().flatMap(Self.hexValue) else {
                throw .invalidURL(url, reason: "a % is not followed by two hex digits")
            }
            bytes.append(high << 4 | low)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw .invalidURL(url, reason: "percent-encoded bytes are not UTF-8")
        }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension StringProtocol {
    fileprivate func splitOnce(_ separator: Character) -> (SubSequence, SubSequence?) {
        guard let index = firstIndex(of: separator) else { return (self[...], nil) }
        return (self[..<index], self[self.index(after: index)...])
    }

    fileprivate func trimmingWhitespace() -> String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
