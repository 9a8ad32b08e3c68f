import CheckoutDomain
import ServiceLifecycle

/// The state of the `memory://` store, changed only inside ``transaction(_:)``.
///
/// One actor for every table, so that a port call touching several tables (an order, its stock and
/// its command's outcome) is one atomic step, as a transaction is in SQL.
actor InMemoryDatabase: StoreBackend {
    private var state = InMemoryState()

    /// Runs `body` on the tables themselves, atomically since the actor runs one body at a time.
    ///
    /// A body checks everything that can fail before it changes anything, so that a throw leaves
    /// nothing half-done. Rolling back by working on a copy would copy every table the body writes,
    /// every cart and command ever stored, on every write: the end-to-end benchmark found that copy
    /// to be most of a `memory://` worker's time, growing with every command.
    func transaction<Result: Sendable>(_ body: @Sendable (inout InMemoryState) throws -> Result) throws -> Result {
        try body(&state)
    }

    func importCatalog(_ products: [Product]) -> CatalogImportReport {
        let inserted = state.upsert(products)
        return CatalogImportReport(inserted: inserted, updated: products.count - inserted)
    }

    func orders(forCart cartID: CartID) -> [Order] {
        state.orders.values.filter { $0.cartID == cartID }.sorted { ($0.placedAt, $0.id) < ($1.placedAt, $1.id) }
    }

    /// One process has the memory store: no other worker waits for this one's claims.
    func renewLiveness(window: Double, first: Bool) {}

    func retire() {}

    private var secrets: [String: String] = [:]

    func secret(_ name: String, candidate: String) -> String {
        if let secret = secrets[name] { return secret }
        secrets[name] = candidate
        return candidate
    }

    func checkReachable() {}

    func prepare(livenessWindow: Double) {}

    /// Nothing to keep open: waits only so that the store runs as long as the service group.
    nonisolated func run() async {
        try? await gracefulShutdown()
    }
}
