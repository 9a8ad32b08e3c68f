import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A stand-in for an OpenTelemetry collector: accepts OTLP/HTTP exports on 127.0.0.1 and keeps each
/// request's path and body, answering 200 with an empty export response.
final class OTLPCollector: Sendable {
    /// `http://127.0.0.1:PORT`, for `OTEL_EXPORTER_OTLP_ENDPOINT`.
    let url: String
    private let listener: any Channel
    private let received: OTLPCollectorRequests

    static func start() async throws -> OTLPCollector {
        let received = OTLPCollectorRequests()
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(NIOHTTPServerRequestAggregator(maxContentLength: 1 << 24))
                    try channel.pipeline.syncOperations.addHandler(OTLPCollectorHandler(received: received))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        return OTLPCollector(listener: listener, received: received)
    }

    private init(listener: any Channel, received: OTLPCollectorRequests) {
        self.listener = listener
        self.received = received
        url = "http://127.0.0.1:\(listener.localAddress?.port ?? 0)"
    }

    /// The bodies of the exports to `path` (`/v1/traces`), in arrival order.
    func bodies(of path: String) -> [String] {
        received.all.filter { $0.path == path }.map(\.body)
    }

    func shutdown() async throws {
        try await listener.close()
    }
}

/// What ``OTLPCollector`` received, shared by its connections.
final class OTLPCollectorRequests: Sendable {
    private let requests = Mutex<[(path: String, body: String)]>([])

    func append(path: String, body: String) {
        requests.withLock { $0.append((path, body)) }
    }

    var all: [(path: String, body: String)] { requests.withLock { $0 } }
}
