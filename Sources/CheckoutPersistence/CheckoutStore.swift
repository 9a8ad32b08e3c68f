public import CheckoutDomain
import Foundation
public import Logging
public import ServiceLifecycle

/// Every port of the domain over one database, opened from `CHECKOUT_DATABASE_URL`.
///
/// The ports share the database, so that a cart or an order is stored in the same transaction
/// as its command's outcome.
public struct CheckoutStore: Service {
    public let syncCarts: any SyncCartStore
    public let carts: any CartRepository
    public let catalog: any ProductCatalog
    public let orders: any OrderRepository
    public let placeOrders: any PlaceOrderStore
    public let placeOrderCommands: any ProcessedCommands<PlaceOrderOutcome>
    public let charges: any ChargeLog
    /// What the store counts of its database traffic; the in-memory store counts nothing.
    public let statistics: DatabaseStatistics
    private let backend: any StoreBackend
    /// What runs the store when ``open(_:poolSize:logger:)`` opened it; nil in a service group.
    private var running: Task<Void, Never>?

    /// How long a worker counts as alive after it last renewed its liveness; then other workers take
    /// over the commands it claimed, without waiting for the claims' lease.
    public static let livenessWindow: Duration = .seconds(4)
    /// How often a worker renews its liveness: often enough that a slow renewal or two do not let
    /// its claims be taken while it works on them.
    public static let livenessInterval: Duration = .seconds(1)

    /// A store over `url`, not yet connected: run it (``run()``, in the worker's service group), then
    /// ``prepare()`` it before using its ports. Code without a service group uses ``open(_:poolSize:logger:)``.
    ///
    /// - Parameters:
    ///   - url: "sqlite://PATH" (relative or absolute path), "postgres://user:pass@host:port/db", or
    ///     "memory://" (this process only; for tests and benchmarks).
    ///   - poolSize: Connections the store keeps open at most; at least 1. SQLite keeps this many
    ///     read-only connections, plus the one that writes.
    /// - Throws: ``DatabaseURLError`` for a URL it cannot read.
    public init(_ url: String, poolSize: Int, logger: Logger) throws {
        let engine: any SQLEngine
        let statistics = DatabaseStatistics()
        switch try DatabaseURL(url) {
        case .memory:
            self = Self.inMemory()
            return
        case .sqlite(let path):
            engine = SQLiteEngine(path: path, readers: poolSize, logger: logger, statistics: statistics)
        case .postgres(let location):
            engine = PostgresEngine(location, poolSize: poolSize, logger: logger, statistics: statistics)
        }
        let executor = SQLExecutor(engine: engine)
        let worker = SQLWorkerLiveness(worker: UUID().uuidString.lowercased())
        let syncCartLog = SQLCommandLog(kind: "sync-cart", owner: worker)
        let placeOrderLog = SQLCommandLog(kind: "place-order", owner: worker)
        let placeOrderCommands = SQLProcessedCommands<PlaceOrderOutcome>(executor: executor, log: placeOrderLog)
        self.init(
            syncCarts: SQLSyncCartStore(executor: executor, commands: syncCartLog),
            carts: SQLCarts(executor: executor),
            catalog: SQLCatalog(executor: executor),
            orders: SQLOrders(executor: executor, commands: placeOrderLog),
            placeOrders: SQLPlaceOrderStore(commands: placeOrderCommands),
            placeOrderCommands: placeOrderCommands,
            charges: SQLChargeLog(executor: executor, log: placeOrderLog),
            statistics: statistics,
            backend: SQLStoreBackend(
                executor: executor, liveness: worker, migrator: Migrator(engine: engine, migrations: Migrations.all, logger: logger),
                isSingleProcess: engine is SQLiteEngine)
        )
    }

    /// A store over `url`, running and prepared, for code without a service group (the sub-commands
    /// other than `run`, and tests); ``close()`` stops it.
    ///
    /// - Throws: ``DatabaseURLError`` for a URL it cannot read; `RetryableError` when the database cannot be reached.
    public static func open(_ url: String, poolSize: Int, logger: Logger) async throws -> CheckoutStore {
        var store = try CheckoutStore(url, poolSize: poolSize, logger: logger)
        let running = Task { [store] in await store.backend.run() }
        store.running = running
        do {
            try await store.prepare()
        } catch {
            await store.close()
            throw error
        }
        return store
    }

    /// Keeps the database's connections until graceful shutdown or cancellation, then closes them: the
    /// worker's service group runs it before the services that use the store, so it closes after them.
    public func run() async {
        await backend.run()
    }

    /// Checks that the database answers, migrates it, and says that this worker is alive: call it once
    /// the store runs, before any other call.
    public func prepare() async throws {
        try await backend.prepare(livenessWindow: Double(Self.livenessWindow.components.seconds))
    }

    private init(
        syncCarts: any SyncCartStore,
        carts: any CartRepository,
        catalog: any ProductCatalog,
        orders: any OrderRepository,
        placeOrders: any PlaceOrderStore,
        placeOrderCommands: any ProcessedCommands<PlaceOrderOutcome>,
        charges: any ChargeLog,
        statistics: DatabaseStatistics,
        backend: any StoreBackend
    ) {
        self.syncCarts = syncCarts
        self.carts = carts
        self.catalog = catalog
        self.orders = orders
        self.placeOrders = placeOrders
        self.placeOrderCommands = placeOrderCommands
        self.charges = charges
        self.statistics = statistics
        self.backend = backend
    }

    /// A new, empty store in this process's memory.
    public static func inMemory() -> CheckoutStore {
        let database = InMemoryDatabase()
        return CheckoutStore(
            syncCarts: InMemorySyncCartStore(database: database),
            carts: InMemoryCarts(database: database),
            catalog: InMemoryCatalog(database: database),
            orders: InMemoryOrders(database: database),
            placeOrders: InMemoryPlaceOrderStore(database: database),
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

    /// Closes the connections of a store that ``open(_:poolSize:logger:)`` opened; the store must not be
    /// used afterwards. A store run by a service group closes when the group stops it.
    public func close() async {
        running?.cancel()
        await running?.value
    }
}
