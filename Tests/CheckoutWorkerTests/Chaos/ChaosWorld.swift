import CheckoutMessaging
import CheckoutPaymentsTesting
import CheckoutPersistence
import CheckoutTestSupport
import Foundation
import Testing

@testable import checkout_worker

/// The servers of one chaos run, none shared with the suites that run beside it: a vhost of its own
/// on the three-node test cluster, a PostgreSQL schema of its own reached through a ``TCPProxy`` that
/// the run can cut, a fake Stripe that fails now and then (chosen by the run's seed) and whose search
/// lags behind its charges, the client, and the workers.
final class ChaosWorld: Sendable {
    let vhost: String
    let database: TestDatabase
    let proxy: TCPProxy
    let stripe: FakeStripeServer
    let client: ChaosClient
    let workers: ChaosWorkers
    /// The cluster node that `rabbitmqctl` is asked (one that stays up).
    let controlNode: Int
    let seed: ChaosSeed
    /// How long the fake Stripe's search lags behind a charge: `CHAOS_STRIPE_SEARCH_LAG` seconds, 5 by default.
    static let searchLag: Duration = .milliseconds(
        Int64((Double(ProcessInfo.processInfo.environment["CHAOS_STRIPE_SEARCH_LAG"] ?? "") ?? 5) * 1000)
    )

    /// Sets everything up and starts `workerCount` workers, which connect to `workerNodes` in that
    /// order (the client to `clientNodes`), with queues of `queueType`.
    init(
        _ name: String,
        seed: ChaosSeed,
        workerNodes: [Int],
        clientNodes: [Int],
        controlNode: Int,
        queueType: String,
        workerCount: Int,
        gatewayFailureRate: Double
    ) async throws {
        let vhost = "chaos.\(name).\(UUID().uuidString.prefix(8).lowercased())"
        try await TestServers.ctl(node: controlNode, "add_vhost", vhost)
        try await TestServers.ctl(node: controlNode, "set_permissions", "-p", vhost, "guest", ".*", ".*", ".*")
        var cleanup: [@Sendable () async -> Void] = [{ _ = try? await TestServers.ctl(node: controlNode, "delete_vhost", vhost) }]
        do {
            let database = try await TestDatabase.make(.postgres)
            cleanup.append { await database.drop() }
            let (proxy, proxiedURL) = try await TCPProxy.start(inFrontOf: database.url)
            cleanup.append { try? await proxy.shutdown() }

            let store = try await CheckoutStore.open(database.url, poolSize: 1, logger: TestWorld.logger)
            _ = try await store.importCatalog(ChaosLoad.products)
            await store.close()

            let stripe = try await FakeStripeServer.start(
                options: FakeStripeOptions(
                    slowAnswerDelay: .seconds(1), transientFailureRate: gatewayFailureRate, seed: seed.roll(0x57), searchLag: Self.searchLag
                ))
            cleanup.append { try? await stripe.shutdown() }

            let environment = [
                "CHECKOUT_AMQP_URL": workerNodes.map { TestServers.url(node: $0, vhost: vhost) }.joined(separator: ","),
                "CHECKOUT_QUEUE_TYPE": queueType,
                "CHECKOUT_DATABASE_URL": proxiedURL,
                "CHECKOUT_DATABASE_POOL_SIZE": "4",
                "CHECKOUT_PAYMENT_PROCESSOR": "stripe",
                "CHECKOUT_STRIPE_API_KEY": stripe.apiKey,
                "CHECKOUT_STRIPE_BASE_URL": stripe.baseURL,
                "CHECKOUT_STRIPE_TIMEOUT": "500ms",
                // The fake's search shows a charge after its lag: the worker believes an empty search only then.
                "CHECKOUT_STRIPE_SEARCH_LAG": "\(Int(Self.searchLag.components.seconds) + 1)s",
                "CHECKOUT_HTTP_PORT": "0",
                "CHECKOUT_CONCURRENCY": "8",
                "CHECKOUT_PREFETCH": "16",
                // 31.5 s of retries in all: longer than any outage of the run, a cluster node's restart
                // included (events stalled up to 13 s after it), plus the fake Stripe's search lag.
                "CHECKOUT_RETRY_DELAYS": "500ms,1s,2s,4s,8s,16s",
                "CHECKOUT_SHUTDOWN_GRACE_PERIOD": "10s",
            ]
            let messaging = try WorkerConfiguration(reading: TestWorld.reader(environment)).messaging
            let client = try await ChaosClient(
                urls: clientNodes.map { TestServers.url(node: $0, vhost: vhost) }.joined(separator: ","), messaging: messaging)
            cleanup.append { await client.close() }
            let workers = try await ChaosWorkers(count: workerCount, environment: environment)

            self.vhost = vhost
            self.database = database
            self.proxy = proxy
            self.stripe = stripe
            self.client = client
            self.workers = workers
            self.controlNode = controlNode
            self.seed = seed
        } catch {
            for step in cleanup.reversed() { await step() }
            throw error
        }
    }

    /// What the database holds now, read directly (not through the proxy).
    func storeState() async throws -> StoreState {
        try await TestDatabase.withEngine(database.url) { try await StoreState.read(from: $0) }
    }

    /// ``close(savingLogs:)`` in a task of its own, so that it still runs when the test was cancelled
    /// (its time limit ran out), which would make every cancellable call of the clean-up fail at once.
    func closeEvenIfCancelled(savingLogs: Bool) async {
        await Task { await close(savingLogs: savingLogs) }.value
    }

    /// Writes the workers' logs to a directory of the temporary directory and prints where.
    func saveLogs() {
        let logs = FileManager.default.temporaryDirectory.appendingPathComponent("checkout-\(vhost)")
        if (try? workers.saveLogs(in: logs)) != nil {
            print("worker logs of \(vhost): \(logs.path)")
        }
    }

    /// Stops whatever still runs and removes the vhost, the schema and the servers.
    func close(savingLogs: Bool) async {
        workers.kill()
        if savingLogs { saveLogs() }
        await client.close()
        try? await stripe.shutdown()
        try? await proxy.shutdown()
        await database.drop()
        _ = try? await TestServers.ctl(node: controlNode, "delete_vhost", vhost)
    }
}
