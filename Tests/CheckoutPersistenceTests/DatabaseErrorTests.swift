import CheckoutDomain
import CheckoutTestSupport
import Foundation
import PostgresNIO
import SQLiteNIO
import Testing

@testable import CheckoutPersistence

/// Transient faults become `RetryableError(databaseUnavailable)` so the worker retries them; the rest do not.
@Suite struct DatabaseErrorTests {
    @Test func aPostgresServerThatDoesNotAnswerIsRetryable() async throws {
        let port = try Self.closedPort()

        let error = await #expect(throws: RetryableError.self) {
            try await CheckoutStore.open("postgres://checkout:checkout@127.0.0.1:\(port)/checkout", poolSize: 1, logger: TestLogger.logger)
        }

        #expect(error?.code == .databaseUnavailable)
    }

    /// A worker waits at start-up for a database that does not answer, so one that refuses its login
    /// for good must say so at once, in the server's words, rather than time out in the pool's retries.
    @Test(arguments: [
        (Login.wrongPassword, "password authentication failed"), (Login.missingDatabase, "does not exist (SQLSTATE 3D000)"),
    ])
    func aPostgresLoginRefusedForGoodIsPermanentAndSaysWhy(login: Login, reason: String) async throws {
        try await TestDatabase.postgres.withFreshURL { url in
            var components = try #require(URLComponents(string: url))
            switch login {
            case .wrongPassword: components.password = "wrong-password"
            case .missingDatabase: components.path = "/no_such_database_\(UUID().uuidString.prefix(8).lowercased())"
            }
            let start = ContinuousClock.now

            let error = await #expect(throws: PersistenceError.self) {
                try await CheckoutStore.open(try #require(components.string), poolSize: 1, logger: TestLogger.logger)
            }

            #expect(error?.code == .databaseFailure)
            #expect(error?.description.contains(reason) == true, "\(String(describing: error))")
            #expect(error?.description.contains("wrong-password") == false)
            // Before the pool's 10 s call limit would have ended it; not tighter, for a loaded machine.
            #expect(ContinuousClock.now - start < .seconds(9))
        }
    }

    enum Login: Sendable, CustomTestStringConvertible {
        case wrongPassword, missingDatabase
        var testDescription: String { "\(self)" }
    }

    @Test(arguments: ["40001", "40P01", "55P03", "57P01", "08006"])
    func transientPostgresStatesAreRetryable(state: String) async throws {
        let error = try await Self.serverError(raising: state)

        #expect(DatabaseFault.isTransient(error))
        #expect((DatabaseFault.classify(error, context: "test") as? RetryableError)?.code == .databaseUnavailable)
    }

    @Test(arguments: ["23505", "42P01", "22003"])
    func otherPostgresStatesArePermanent(state: String) async throws {
        let error = try await Self.serverError(raising: state)

        #expect(!DatabaseFault.isTransient(error))
        #expect((DatabaseFault.classify(error, context: "test") as? PersistenceError)?.code == .databaseFailure)
    }

    @Test func aSQLiteDatabaseLockedByAnotherWriterIsRetryable() async throws {
        try await TestDatabase.sqlite.withFreshURL { url in
            let store = try await CheckoutStore.open(url, poolSize: 1, logger: TestLogger.logger)
            let blocker = try await SQLiteConnection.open(storage: .file(path: String(url.dropFirst("sqlite://".count))))
            _ = try await blocker.query("BEGIN IMMEDIATE")

            let error = await #expect(throws: RetryableError.self) {
                _ = try await store.importCatalog([Fixtures.product("SKU-A")])
            }

            _ = try await blocker.query("ROLLBACK")
            try await blocker.close()
            await store.close()
            #expect(error?.code == .databaseUnavailable)
        }
    }

    @Test func aSQLiteFileThatCannotBeOpenedIsPermanent() async throws {
        await #expect(throws: PersistenceError.self) {
            try await CheckoutStore.open(
                "sqlite:///nonexistent-directory-\(UUID().uuidString)/x.sqlite", poolSize: 1, logger: TestLogger.logger)
        }
    }

    @Test func aReachableStorePassesItsReadinessCheck() async throws {
        try await TestDatabase.postgres.withFreshURL { url in
            let store = try await CheckoutStore.open(url, poolSize: 1, logger: TestLogger.logger)
            try await store.checkReachable()
            await store.close()
        }
    }

    /// A port nothing listens on: bound, then closed.
    private static func closedPort() throws -> Int {
        let socket = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: "127.0.0.1", port: 0).wait()
        let port = socket.localAddress!.port!
        try socket.close().wait()
        return port
    }

    /// The error PostgreSQL itself sends for `state`, through the same client the store uses.
    private static func serverError(raising state: String) async throws -> any Error {
        do {
            try await ScratchDatabase.executeOnPostgres("DO $$ BEGIN RAISE EXCEPTION 'test' USING ERRCODE = '\(state)'; END $$")
        } catch {
            return error
        }
        Issue.record("PostgreSQL raised nothing for \(state)")
        return CancellationError()
    }
}
