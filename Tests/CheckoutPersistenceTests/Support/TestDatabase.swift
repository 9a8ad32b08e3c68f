import CheckoutPersistence
import CheckoutTestSupport
import Foundation
import Logging
import Testing

/// The engines every contract suite runs against.
enum TestDatabase: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case memory, sqlite, postgres

    static let sql: [TestDatabase] = [.sqlite, .postgres]

    var testDescription: String { rawValue }

    /// Runs `body` with a new, empty store of this engine, then closes it and removes what it made.
    func withStore<Result>(poolSize: Int = 8, _ body: (CheckoutStore) async throws -> Result) async throws -> Result {
        try await withFreshURL { url in
            let store = try await CheckoutStore.open(url, poolSize: poolSize, logger: TestLogger.logger)
            do {
                let result = try await body(store)
                await store.close()
                return result
            } catch {
                await store.close()
                throw error
            }
        }
    }

    /// Runs `body` with the URL of an empty database of this engine (a temporary SQLite file, a PostgreSQL
    /// schema of its own), and removes it afterwards.
    func withFreshURL<Result>(_ body: (String) async throws -> Result) async throws -> Result {
        switch self {
        case .memory: try await body("memory://")
        case .sqlite: try await ScratchDatabase.with(.sqlite) { try await body($0.url) }
        case .postgres: try await ScratchDatabase.with(.postgres) { try await body($0.url) }
        }
    }
}
