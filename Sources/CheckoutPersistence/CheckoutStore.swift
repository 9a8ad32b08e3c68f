public import CheckoutDomain
import Foundation
public import Logging

/// Every port of the domain over one database, opened from `CHECKOUT_DATABASE_URL`.
///
/// The ports share the database, so that a cart or an order is stored in the same transaction
/// as its command's outcome.
public struct CheckoutStore: Sendable {
    public let syncCarts: any SyncCartStore
    public let carts: any CartRepository
    public let catalog: any ProductCatalog
    public let orders: any OrderRepository
    public let placeOrderCommands: any ProcessedCommands<PlaceOrderOutcome>
    public let charges: any ChargeLog
    /// What the store counts of its database traffic; the in-memory store counts nothing.
    public let statistics: DatabaseStatistics
    private let backend: any StoreBackend

    /// How long a worker counts as alive after it last renewed its liveness; then other workers take
    /// over the commands it claimed, without waiting for the claims' lease.
    public static let livenessWindow: Duration = .seconds(4)
    /// How often a worker renews its liveness: often enough that a slow renewal or two do not let
    /// its claims be taken while it works on them.
    public static let livenessInterval: Duration = .seconds(1)

    /// "sqlite://PATH" (relative or absolute path), "postgres://user:pass@host:port/db", or
    /// "memory://" (this process only; for tests and benchmarks). Migrates before returning.
    ///
    /// - Parameter poolSize: Connections the store keeps open at most; at least 1. SQLite keeps this many
    ///   read-only connections, plus the one that writes.
    /// - Throws: ``DatabaseURLError`` for a URL it cannot read; `RetryableError` when the database cannot be reached.
    public static func open(_ url: String, poolSize: Int, logger: Logger) async throws -> CheckoutStore {
        let engine: any SQLEngine
        let statistics = DatabaseStatistics()
        switch try DatabaseURL(url) {
        case .memory:
            return inMemory()
        case .sqlite(let path):
            engine = SQLiteEngine(path: path, readers: poolSize, logger: logger, statistics: statistics)
        case .postgres(let location):
            engine = try PostgresEngine.start(location, poolSize: poolSize, logger: logger, statistics: statistics)
        }
        let executor = SQLExecutor(engine: engine)
        let worker = SQLWorkerLiveness(worker: UUID().uuidString.lowercased())
        let backend = SQLStoreBackend(executor: executor, liveness: worker, isSingleProcess: engine is SQLiteEngine)
        do {
            try await backend.checkReachable()
            try await Migrator(engine: engine, migrations: Migrations.all, logger: logger).migrate()
            try await backend.renewLiveness(window: Double(livenessWindow.components.seconds), first: false)
        } catch {
            await engine.close()
            throw error
        }
        let syncCartLog = SQLCommandLog(kind: "sync-cart", owner: worker)
        let placeOrderLog = SQLCommandLog(kind: "place-order", owner: worker)
        return CheckoutStore(
            syncCarts: SQLSyncCartStore(executor: executor, commands: syncCartLog),
            carts: SQLCarts(executor: executor),
            catalog: SQLCatalog(executor: executor),
            orders: SQLOrders(executor: executor, commands: placeOrderLog),
            placeOrderCommands: SQLProcessedCommands(executor: executor, log: placeOrderLog),
            charges: SQLChargeLog(executor: executor, log: placeOrderLog),
            statistics: statistics,
            backend: backend
        )
    }

    /// A new, empty store in this process's memory.
    public static func inMemory() -> CheckoutStore {
        let database = InMemoryDatabase()
        return CheckoutStore(
            syncCarts: InMemorySyncCartStore(database: database),
            carts: InMemoryCarts(database: database),
            catalog: InMemoryCatalog(database: database),
            orders: InMemoryOrders(database: database),
            placeOrderCommands: InMemoryProcessedCommands(database: database, log: \.placeOrderCommands),
            charges: InMemoryChargeLog(database: database),
            statistics: DatabaseStatistics(),
            backend: database
        )
    }

    /// Upserts products in one transaction; returns how many were inserted and updated.
    public func importCatalog(_ products: [Product]) async throws -> CatalogImportReport {
        try await backend.importCatalog(products)
    }

    /// The orders placed from a cart, oldest first: at most one, unless something is wrong.
    ///
    /// Not a port of the domain: for operators and end-to-end tests that check an effect happened once.
    public func orders(forCart cartID: CartID) async throws -> [Order] {
        try await backend.orders(forCart: cartID)
    }

    /// Tells the other workers that this one is alive, for ``livenessWindow``, as ``open(_:poolSize:logger:)``
    /// did: call it every ``livenessInterval`` while handling commands. With `first`, when a worker
    /// starts, on SQLite (one process per file) it also frees the claims of every earlier process at once.
    public func renewLiveness(first: Bool = false) async throws {
        try await backend.renewLiveness(window: Double(Self.livenessWindow.components.seconds), first: first)
    }

    /// Forgets this worker, after it finished every command it claimed.
    public func retire() async throws {
        try await backend.retire()
    }

    /// The key every worker of this database signs retry counts with: made by the first worker that
    /// asks, 32 random bytes, and the same for all the others.
    public func retrySigningKey() async throws -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        let candidate = Data((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let stored = try await backend.secret("retry-signing-key", candidate: candidate.base64EncodedString())
        guard let key = Data(base64Encoded: stored), !key.isEmpty else {
            throw PersistenceError(code: .unreadableRow, context: "the stored retry signing key is not base64")
        }
        return Array(key)
    }

    /// Throws when the database cannot be reached (the worker's /health/ready).
    public func checkReachable() async throws {
        try await backend.checkReachable()
    }

    /// Closes the database's connections; the store must not be used afterwards.
    public func close() async {
        await backend.close()
    }
}
