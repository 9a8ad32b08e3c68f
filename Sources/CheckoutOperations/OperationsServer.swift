import Hummingbird
import HummingbirdCore
public import Logging
import NIOCore
public import Prometheus
public import ServiceLifecycle

/// The worker's HTTP endpoints for its operators: liveness, readiness and Prometheus metrics.
///
/// - `GET /health/live`: 200 while the process runs and its liveness check holds, 503 otherwise, so an
///   orchestrator restarts a process that stopped answering, or one stuck past recovering by itself.
/// - `GET /health/ready`: 200 when every ``ReadinessCheck`` passes, 503 otherwise, with a JSON body
///   naming each check and its state (`up`, `down` or `timed-out`):
///   `{"status":"ready","checks":{"broker":"up","database":"up","consumers":"up"}}`.
///   Checks run at once, each bounded by the check timeout, so a hung database cannot hang the probe.
/// - `GET /metrics`: the registry in Prometheus text format.
///
/// A connection that sends nothing for the idle timeout is closed: every one held open costs a file
/// descriptor, and a process out of them can open no broker, database or payment connection either.
///
/// A swift-service-lifecycle `Service`: `run()` serves until graceful shutdown or cancellation.
/// In a `ServiceGroup`, put it first so that it stops last and keeps answering while the rest drains.
public struct OperationsServer: Service {
    private let host: String
    private let port: Int
    private let readinessChecks: [ReadinessCheck]
    private let isAlive: @Sendable () -> Bool
    private let checkTimeout: Duration
    private let idleTimeout: Duration
    private let registry: PrometheusCollectorRegistry
    private let logger: Logger
    private let listening: ListeningPort

    /// - Parameters:
    ///   - host: The address to bind; `0.0.0.0` to be reachable from outside a container.
    ///   - port: The port to bind; 0 for any free port (see ``listeningPort``, and the start-up log line's `http.port`).
    ///   - readinessChecks: What `/health/ready` asks, in the order its body lists them.
    ///   - isAlive: What `/health/live` asks; it must answer at once, without waiting on anything.
    ///   - checkTimeout: How long one check may take before it counts as `timed-out`.
    ///   - idleTimeout: How long a connection may send nothing before it is closed; longer than
    ///     Prometheus's usual scrape interval, so a scraper's kept-alive connection is reused.
    ///   - registry: What `/metrics` renders, usually ``MetricsBootstrap/registry``.
    ///   - logger: For the server's own events and for failing checks.
    public init(
        host: String = "0.0.0.0",
        port: Int,
        readinessChecks: [ReadinessCheck],
        isAlive: @escaping @Sendable () -> Bool = { true },
        checkTimeout: Duration = .seconds(2),
        idleTimeout: Duration = .seconds(75),
        registry: PrometheusCollectorRegistry,
        logger: Logger
    ) {
        self.host = host
        self.port = port
        self.readinessChecks = readinessChecks
        self.isAlive = isAlive
        self.checkTimeout = checkTimeout
        self.idleTimeout = idleTimeout
        self.registry = registry
        self.logger = logger
        listening = ListeningPort(address: "\(host):\(port)")
    }

    /// The port the server listens on; waits until ``run()`` has bound it and throws
    /// ``OperationsServerError/Code/notListening`` once the server has stopped.
    public var listeningPort: Int {
        get async throws { try await listening.value() }
    }

    public func run() async throws {
        defer { listening.stop() }
        let application = Application(
            router: router(),
            server: .http1(configuration: HTTP1Channel.Configuration(idleTimeout: TimeAmount(idleTimeout))),
            configuration: ApplicationConfiguration(address: .hostname(host, port: port)),
            onServerRunning: { [listening, logger] channel in
                guard let port = channel.localAddress?.port else { return }
                // The port actually bound, as a field of its own: with port 0 nothing else tells it.
                logger.info("serving /health/live, /health/ready and /metrics", metadata: ["http.port": .stringConvertible(port)])
                listening.listen(on: port)
            },
            logger: logger
        )
        do {
            try await application.run()
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            // NIO's bind error names neither the address nor the port.
            throw OperationsServerError(
                code: .cannotServe, context: "serving /health/live, /health/ready and /metrics on \(host):\(port): \(error)")
        }
    }

    private func router() -> Router<BasicRequestContext> {
        // HEAD answers as GET without the body: some load balancers and monitors probe with it.
        let router = Router(options: .autoGenerateHeadEndpoints)
        router.get("health/live") { [isAlive] _, _ in isAlive() ? HTTPResponse.Status.ok : .serviceUnavailable }
        router.get("health/ready") { _, _ in await readiness() }
        router.get("metrics") { _, _ in metrics() }
        return router
    }

    /// Whether every readiness check passes now, as `/health/ready` would answer.
    public func isReady() async -> Bool {
        await ReadinessReport.evaluate(readinessChecks, timeout: checkTimeout, logger: logger).isReady
    }

    private func readiness() async -> Response {
        let report = await ReadinessReport.evaluate(readinessChecks, timeout: checkTimeout, logger: logger)
        return Response(
            status: report.isReady ? .ok : .serviceUnavailable,
            headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: report.json))
        )
    }

    private func metrics() -> Response {
        Response(
            status: .ok,
            headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer()))
        )
    }
}
