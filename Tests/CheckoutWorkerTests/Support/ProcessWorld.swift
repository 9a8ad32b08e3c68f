import CheckoutMessaging
import CheckoutTestSupport
import Foundation
import RabbitMQ
import Testing

@testable import checkout_worker

/// One test's world for the real executable: a broker vhost and a database of its own, and a
/// client connection that publishes commands and collects every event, as an outside service would.
/// The client outlives the workers it watches, so no event is missed across a crash and a restart.
final class ProcessWorld: Sendable {
    let vhost: BrokerVirtualHost
    let database: TestDatabase
    let client: AMQPConnection
    let events: MessageInbox
    private let consumer: Task<Void, Never>

    init(_ name: String, database engine: TestDatabase.Engine) async throws {
        vhost = try await BrokerVirtualHost.create(name)
        do {
            database = try await TestDatabase.make(engine)
        } catch {
            try? await vhost.delete()
            throw error
        }
        do {
            var configuration = try AMQPConfiguration(urls: vhost.url)
            configuration.connectionName = "test-client.\(name)"
            configuration.reconnectBackoff = ReconnectBackoff(initialDelay: .milliseconds(100), maximumDelay: .seconds(1))
            client = try await AMQPConnection.connect(configuration, logger: TestWorld.logger)
            // The worker declares the same; the client does too, so that it can publish before any worker ran.
            try await client.declare(CheckoutTopology.make(try WorkerConfiguration(reading: TestWorld.reader([:])).messaging))
            try await client.declare(
                AMQPTopology(
                    queues: [.init(name: "test.observed-events", durable: false)],
                    bindings: [.init(queue: "test.observed-events", exchange: "checkout.events", routingKey: "#")]
                ))
            let deliveries = try await client.consume(queue: "test.observed-events", prefetch: 1000)
            let events = MessageInbox()
            self.events = events
            consumer = Task {
                for await delivery in deliveries {
                    events.append(delivery)
                    delivery.ack()
                }
            }
        } catch {
            try? await vhost.delete()
            await database.drop()
            throw error
        }
    }

    /// The settings of this world's workers: its vhost and database, any free HTTP port and quick
    /// retries. The claim lease is the default (two minutes): a crashed worker's successor takes its
    /// commands over through their claims' liveness, as in production.
    func environment(_ overrides: [String: String] = [:]) -> [String: String] {
        [
            "CHECKOUT_AMQP_URL": vhost.url,
            "CHECKOUT_DATABASE_URL": database.url,
            "CHECKOUT_HTTP_PORT": "0",
            "CHECKOUT_CONCURRENCY": "4",
            "CHECKOUT_RETRY_DELAYS": "500ms,1s,2s,4s,8s",
            "CHECKOUT_SHUTDOWN_GRACE_PERIOD": "10s",
        ].merging(overrides) { $1 }
    }

    /// Starts `checkout-worker run` in this world and waits until it serves HTTP (so it migrated
    /// the database and connected to the broker).
    func startWorker(_ overrides: [String: String] = [:]) async throws -> WorkerProcess {
        let worker = try WorkerProcess(["run"], environment: environment(overrides))
        _ = try await worker.httpPort()
        return worker
    }

    /// Runs `checkout-worker catalog import` on a file with `json`, and requires it to succeed.
    func importCatalog(_ json: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("catalog-\(UUID().uuidString.prefix(8)).json")
        try Data(json.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let importer = try WorkerProcess(["catalog", "import", file.path], environment: environment())
        let status = try await importer.waitForExit(timeout: .seconds(60))
        try #require(status == 0, "catalog import exited \(status): \(importer.standardError)", sourceLocation: sourceLocation)
        #expect(importer.standardOutput.contains("imported"), sourceLocation: sourceLocation)
    }

    /// Publishes the commands as a client would, persistent, every confirm awaited.
    func send(_ kind: CommandKind, _ commands: [(messageID: String, body: String)]) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (messageID, body) in commands {
                group.addTask { [client] in
                    let properties = AMQPProperties(contentType: "application/json", deliveryMode: .persistent, messageID: messageID)
                    try await client.publish(
                        AMQPMessage(
                            exchange: "checkout.commands", routingKey: kind.routingKey, properties: properties, body: Array(body.utf8),
                            mandatory: true))
                }
            }
            try await group.waitForAll()
        }
    }

    func close() async {
        consumer.cancel()
        await client.close()
        try? await vhost.delete()
        await database.drop()
    }
}

/// Runs `body` in a fresh ``ProcessWorld`` and tears it down whatever happens.
func withProcessWorld(_ name: String, database: TestDatabase.Engine = .sqlite, _ body: (ProcessWorld) async throws -> Void) async throws {
    let world = try await ProcessWorld(name, database: database)
    do {
        try await body(world)
    } catch {
        await world.close()
        throw error
    }
    await world.close()
}
