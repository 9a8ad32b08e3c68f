import CheckoutDomain
import CheckoutMessaging
import CheckoutPersistence
import Foundation
import Logging
import RabbitMQ
import ServiceLifecycle
import Synchronization

/// The worker's start-up and its work, once the store and the broker connection run in the group:
/// prepares the store, imports the start-up catalog, waits for the broker, then handles commands until
/// graceful shutdown, renewing this worker's liveness until the last command in flight has finished.
///
/// Start-up waits for a database that does not answer yet, as the connection waits for its broker, so
/// that workers started before their servers (a whole stack coming up at once) come up with them, not
/// ready meanwhile. A start-up step that fails for a reason that will not pass (a migration, a catalog
/// file) ends the service, and so the group, with that step's error; a graceful shutdown ends start-up
/// with nothing taken from the queues.
final class CommandHandlingService: Service {
    private let store: CheckoutStore
    private let connection: AMQPConnection
    private let catalogFile: String?
    private let makeCommandWorker: @Sendable (RetrySigner) -> CommandWorker
    private let logger: Logger
    /// Made once the store gave the retry signing key; nil before.
    private let commandWorker = Mutex<CommandWorker?>(nil)

    init(
        store: CheckoutStore,
        connection: AMQPConnection,
        catalogFile: String?,
        logger: Logger,
        makeCommandWorker: @escaping @Sendable (RetrySigner) -> CommandWorker
    ) {
        self.store = store
        self.connection = connection
        self.catalogFile = catalogFile
        self.logger = logger
        self.makeCommandWorker = makeCommandWorker
    }

    /// Whether both command queues are consumed (for `/health/ready`); false during start-up.
    var isConsuming: Bool {
        commandWorker.withLock { $0?.isConsuming ?? false }
    }

    func run() async throws {
        guard let retrySigner = try await startUp() else { return }
        let worker = makeCommandWorker(retrySigner)
        commandWorker.withLock { $0 = worker }

        let liveness = WorkerLiveness(store: store, logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await liveness.renewUntilCancelled() }
            defer { group.cancelAll() }
            try await worker.run()
        }
    }

    /// The retry signer once the store and the broker are ready; nil when a graceful shutdown came first.
    private func startUp() async throws -> RetrySigner? {
        do {
            return try await cancelWhenGracefulShutdown { [self] in
                let key = try await waitingForTheDatabase {
                    try await store.prepare()
                    try await store.renewLiveness(first: true)
                    return try await store.retrySigningKey()
                }
                if let catalogFile { try await importCatalog(from: catalogFile) }
                try await connection.connected()
                return RetrySigner(key: key)
            }
        } catch  where Task.isShuttingDownGracefully {
            logger.info("stopped before handling any command")
            return nil
        }
    }

    /// Runs `steps` until they get past every failure that may pass, waiting between attempts as the
    /// broker connection does between rounds.
    private func waitingForTheDatabase<Value>(_ steps: () async throws -> Value) async throws -> Value {
        var failures = 0
        while true {
            do {
                return try await steps()
            } catch let error as RetryableError where !Task.isCancelled {
                let delay = Self.databaseBackoff.delay(forAttempt: failures)
                failures += 1
                logger.warning(
                    "the database is not reachable yet; trying again", error: error,
                    metadata: [
                        "db.start.failures": .stringConvertible(failures),
                        "db.start.delay_ms": .stringConvertible(Int(delay / .milliseconds(1))),
                    ])
                try await Task.sleep(for: delay)
            }
        }
    }

    /// A failed attempt already took up to the database's call limit; the waits add little to it.
    private static let databaseBackoff = ReconnectBackoff(initialDelay: .milliseconds(500), maximumDelay: .seconds(15))

    private func importCatalog(from file: String) async throws {
        do {
            let report = try await store.importCatalog(try CatalogFileReader.products(at: file))
            logger.info(
                "imported the start-up catalog",
                metadata: [
                    "file.path": "\(file)", "catalog.inserted": .stringConvertible(report.inserted),
                    "catalog.updated": .stringConvertible(report.updated),
                ])
        } catch {
            throw SubcommandFailure("\(WorkerSettings.catalogFile.environmentName): nothing imported: \(error)")
        }
    }
}
