import Testing

@testable import CheckoutPersistence

@Suite struct DatabaseURLTests {
    @Test(arguments: [
        "mysql://localhost/db", "checkout.sqlite", "sqlite://", "sqlite://:memory:", "postgres://localhost/db", "postgres://user@/db",
        "postgres://user@host/", "postgres://user@host/db?sslmode=sometimes", "postgres://user@host/db?color=blue",
        // A port past 65535 read as 0, one too long for an integer as 5432; names PostgreSQL cannot take.
        "postgres://user@host:65536/db", "postgres://user@host:99999999999999999999/db", "postgres://user@[::1]:0/db",
        "postgres://\(String(repeating: "u", count: 64))@host/db", "postgres://user@host/\(String(repeating: "d", count: 64))",
        // SQLite reads a name starting with file: as a URI (this one, a database in memory per connection); a
        // query would be part of the file's name.
        "sqlite://file::memory:", "sqlite://file:checkout.sqlite?mode=memory", "sqlite:///tmp/checkout.sqlite?mode=rwc",
    ])
    func aURLTheStoreCannotOpenIsAnErrorNamingTheVariableAndWhatItAccepts(url: String) async throws {
        let error = await #expect(throws: DatabaseURLError.self) {
            try await CheckoutStore.open(url, poolSize: 1, logger: TestLogger.logger)
        }

        #expect(error?.description.contains("CHECKOUT_DATABASE_URL") == true)
        #expect(error?.description.contains("sqlite://PATH, postgres://user:pass@host:port/db or memory://") == true)
    }

    @Test func theErrorNeverShowsThePassword() async throws {
        let error = await #expect(throws: DatabaseURLError.self) {
            try await CheckoutStore.open("postgres://user:s3cret@host/db?sslmode=bad", poolSize: 1, logger: TestLogger.logger)
        }

        #expect(error?.description.contains("s3cret") == false)
    }

    /// URLs write an IPv6 address in brackets, which are not part of the address PostgresNIO connects to;
    /// a Unix socket's directory as the host is not something it can connect to, and is said so.
    @Test func anIPv6HostLosesItsBracketsAndASocketDirectoryIsRefused() throws {
        #expect(try PostgresLocation("postgres://app@[::1]:5433/shop").host == "::1")
        #expect(try PostgresLocation("postgres://app@[fe80::1]/shop").host == "fe80::1")
        #expect(throws: DatabaseURLError.self) { try PostgresLocation("postgres://app@%2Fvar%2Frun%2Fpostgresql/shop") }
    }
}
