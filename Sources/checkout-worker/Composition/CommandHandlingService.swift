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
/// A start-up step that fails ends the service, and so the group, with that step's error.
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
        try await store.prepare()
        try await store.renewLiveness(first: true)
        let retrySigner = RetrySigner(key: try await store.retrySigningKey())
        if let catalogFile { try await importCatalog(from: catalogFile) }
        try await connection.connected()
        let worker = makeCommandWorker(retrySigner)
        commandWorker.withLock { $0 = worker }

        let liveness = WorkerLiveness(store: store, logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await liveness.renewUntilCancelled() }
            defer { group.cancelAll() }
            try await worker.run()
        }
    }

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
