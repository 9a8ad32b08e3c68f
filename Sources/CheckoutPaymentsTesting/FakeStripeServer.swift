import NIOCore
import NIOHTTP1
import NIOPosix

/// A local HTTP server that speaks the subset of the Stripe API that `StripePaymentProcessor` uses,
/// for tests and chaos runs in-process: no network, no account.
///
/// - `POST /v1/payment_methods` from a card token, `POST /v1/payment_intents` (create and confirm
///   a PaymentMethod id), `POST /v1/refunds`, and `GET /v1/payment_intents/search` with
///   `metadata['command_id']:'…'`, lagging ``FakeStripeOptions/searchLag`` behind charges;
/// - bearer authentication with ``FakeStripeOptions/apiKey``;
/// - an answer stored per `Idempotency-Key` and replayed to repeats, a repeated key with other
///   parameters refused with 400 `idempotency_error`;
/// - behaviour scripted by payment-method token (``FakeStripeToken``) and a rate of random
///   transient failures (``FakeStripeOptions/transientFailureRate``).
///
/// Unlike Stripe, the scripted 500s are not stored under their key.
/// It listens on 127.0.0.1 on a free port; ``shutdown()`` closes it and every connection.
public final class FakeStripeServer: Sendable {
    /// `http://127.0.0.1:PORT`, for `StripeConfiguration.baseURL`.
    public let baseURL: String
    /// The key clients must send.
    public let apiKey: String
    private let api: FakeStripeAPI
    private let listener: any Channel
    private let connections: FakeStripeConnections

    /// Starts a server on an ephemeral port of 127.0.0.1.
    public static func start(options: FakeStripeOptions = FakeStripeOptions()) async throws -> FakeStripeServer {
        let api = FakeStripeAPI(options: options)
        let connections = FakeStripeConnections()
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                connections.track(channel)
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(FakeStripeHTTPHandler(api: api))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        return FakeStripeServer(api: api, apiKey: options.apiKey, listener: listener, connections: connections)
    }

    private init(api: FakeStripeAPI, apiKey: String, listener: any Channel, connections: FakeStripeConnections) {
        self.api = api
        self.apiKey = apiKey
        self.listener = listener
        self.connections = connections
        baseURL = "http://127.0.0.1:\(listener.localAddress?.port ?? 0)"
    }

    /// What the server has charged and refunded so far.
    public var ledger: FakeStripeLedger { api.ledger }

    /// The most connections clients had open to the server at once.
    public var mostConnectionsAtOnce: Int { connections.mostAtOnce }

    /// Stops listening and closes every open connection; answers still due are dropped.
    public func shutdown() async throws {
        try await listener.close()
        await connections.closeAll()
    }
}
