import Foundation
import NIOCore
import NIOPosix

/// A TCP forwarder on 127.0.0.1 in front of one server, that a test can cut: every connection
/// through it is closed, and new ones are closed as they arrive, until it is restored.
///
/// The chaos suite puts it between the workers and PostgreSQL, to make the database unreachable
/// without stopping a server that other suites use.
final class TCPProxy: Sendable {
    /// The port clients connect to instead of the server's.
    let port: Int
    private let listener: any Channel
    private let connections: TCPProxyConnections

    /// Listens on a free port of 127.0.0.1 and forwards each connection to `host:port`.
    static func start(forwardingTo host: String, port upstreamPort: Int) async throws -> TCPProxy {
        let connections = TCPProxyConnections()
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            // Nothing is read from a client before its server connection exists to take it.
            .childChannelOption(.autoRead, value: false)
            .childChannelInitializer { inbound in
                // A failed initializer makes NIO close the accepted connection.
                guard connections.admit(inbound) else { return inbound.eventLoop.makeFailedFuture(ChannelError.ioOnClosedChannel) }
                return ClientBootstrap(group: inbound.eventLoop)
                    .connectTimeout(.seconds(5))
                    .connect(host: host, port: upstreamPort)
                    .flatMapThrowing { outbound in
                        guard connections.admit(outbound) else {
                            outbound.close(promise: nil)
                            throw ChannelError.ioOnClosedChannel
                        }
                        try outbound.pipeline.syncOperations.addHandler(TCPProxyForwarder(partner: inbound))
                        try inbound.pipeline.syncOperations.addHandler(TCPProxyForwarder(partner: outbound))
                    }
                    .flatMap { inbound.setOption(.autoRead, value: true) }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        return TCPProxy(port: listener.localAddress?.port ?? 0, listener: listener, connections: connections)
    }

    /// A proxy in front of the server of `url` (`amqp://…`, `postgres://…`), and the same URL through it.
    static func start(inFrontOf url: String) async throws -> (proxy: TCPProxy, url: String) {
        guard var components = URLComponents(string: url), let host = components.host, let port = components.port else {
            throw URLError(.badURL)
        }
        let proxy = try await start(forwardingTo: host, port: port)
        components.port = proxy.port
        guard let proxied = components.string else { throw URLError(.badURL) }
        return (proxy, proxied)
    }

    private init(port: Int, listener: any Channel, connections: TCPProxyConnections) {
        self.port = port
        self.listener = listener
        self.connections = connections
    }

    /// Closes every connection through the proxy and refuses new ones until ``restore()``; returns
    /// how many channels it closed (both ends of each connection count).
    @discardableResult
    func cut() -> Int {
        connections.cut()
    }

    /// How many connection attempts the proxy refused while cut, since it started.
    var refused: Int { connections.refused }

    /// Cuts the proxy for `duration`, then restores it; returns the channels the cut closed and the
    /// connections refused during the outage.
    func outage(for duration: Duration) async throws -> (closed: Int, refused: Int) {
        let refusedBefore = refused
        let closed = cut()
        do {
            try await Task.sleep(for: duration)
        } catch {
            restore()
            throw error
        }
        let refusedDuring = refused - refusedBefore
        restore()
        return (closed, refusedDuring)
    }

    /// Forwards new connections again.
    func restore() {
        connections.restore()
    }

    /// Stops listening and closes every connection.
    func shutdown() async throws {
        connections.cut()
        try await listener.close()
    }
}
