public import CheckoutDomain
public import Logging

/// Every port of the domain over one database, opened from `CHECKOUT_DATABASE_URL`.
///
/// The ports share the database, so that a cart or an order is stored in the same transaction
/// as its command's outcome.
public struct CheckoutStore: Sendable {
    public let carts: any CartRepository
    public let catalog: any ProductCatalog
    public let orders: any OrderRepository
    public let syncCartCommands: any ProcessedCommands<SyncCartOutcome>
    public let placeOrderCommands: any ProcessedCommands<PlaceOrderOutcome>
    private let backend: any StoreBackend

    /// "sqlite://PATH" (relative or absolute path), "postgres://user:pass@host:port/db", or
    /// "memory://" (this process only; for tests and benchmarks). Migrates before returning.
    ///
    /// - Parameter poolSize: Connections the store keeps open at most; at least 1.
    /// - Throws: ``DatabaseURLError`` for a URL it cannot read; `RetryableError` when the database cannot be reached.
    public static func open(_ url: String, poolSize: Int, logger: Logger) async throws -> CheckoutStore {
        switch try DatabaseURL(url) {
        case .memory:
            return inMemory()
        case .sqlite, .postgres:
            throw DatabaseURLError(code: .unsupportedScheme, reason: "names a SQL engine this build cannot open yet")
        }
    }

    /// A new, empty store in this process's memory.
    public static func inMemory() -> CheckoutStore {
        let database = InMemoryDatabase()
        return CheckoutStore(
            carts: InMemoryCarts(database: database),
            catalog: InMemoryCatalog(database: database),
            orders: InMemoryOrders(database: database),
            syncCartCommands: InMemoryProcessedCommands(database: database, log: \.syncCartCommands),
            placeOrderCommands: InMemoryProcessedCommands(database: database, log: \.placeOrderCommands),
            backend: database
        )
    }

    /// Upserts products in one transaction; returns how many were inserted and updated.
    public func importCatalog(_ products: [Product]) async throws -> CatalogImportReport {
        try await backend.importCatalog(products)
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
