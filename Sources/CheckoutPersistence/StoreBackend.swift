import CheckoutDomain

/// What ``CheckoutStore`` needs of an engine beyond the domain's ports.
protocol StoreBackend: Sendable {
    func importCatalog(_ products: [Product]) async throws -> CatalogImportReport
    func orders(forCart cartID: CartID) async throws -> [Order]
    /// Says that this worker is alive for `window` more seconds; when `first`, an engine that one
    /// process works on alone also forgets every other worker (earlier incarnations that died).
    func renewLiveness(window: Double, first: Bool) async throws
    /// Forgets this worker, once it handles no command any more.
    func retire() async throws
    /// The secret named `name`, made from `candidate` by whichever worker asks first.
    func secret(_ name: String, candidate: String) async throws -> String
    func checkReachable() async throws
    /// Checks that the database answers, migrates it, and says that this worker is alive for `livenessWindow`.
    func prepare(livenessWindow: Double) async throws
    /// Keeps the database's connections until graceful shutdown or cancellation, then closes them.
    func run() async
}
