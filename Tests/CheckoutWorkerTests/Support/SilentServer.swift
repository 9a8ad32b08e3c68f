import NIOCore
import NIOPosix

/// A TCP server on 127.0.0.1 that accepts every connection and never sends a byte: a broker node that
/// hangs, which a client waits for until its own timeout.
final class SilentServer: Sendable {
    let port: Int
    private let listener: any Channel

    private init(listener: any Channel) {
        self.listener = listener
        port = listener.localAddress?.port ?? 0
    }

    static func start() async throws -> SilentServer {
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { $0.eventLoop.makeSucceededVoidFuture() }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        return SilentServer(listener: listener)
    }

    /// Stops listening; connections already accepted close when their client gives up.
    func shutdown() async throws {
        try await listener.close()
    }
}
