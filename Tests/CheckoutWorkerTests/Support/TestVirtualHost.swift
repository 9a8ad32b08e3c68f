import Foundation
import Testing

/// A RabbitMQ virtual host of one test's own, so that `checkout-worker` run as a process can use the
/// contract's names (`checkout.dead-letter`, …) without meeting other tests on the shared broker.
struct TestVirtualHost {
    let name: String

    static func create() async throws -> TestVirtualHost {
        let host = TestVirtualHost(name: "test-dead-letters-\(UUID().uuidString.prefix(8))")
        let user = URLComponents(string: TestWorld.brokerURL)?.user ?? "guest"
        try await rabbitmqctl("add_vhost", host.name)
        try await rabbitmqctl("set_permissions", "-p", host.name, user, ".*", ".*", ".*")
        return host
    }

    func delete() async throws {
        try await Self.rabbitmqctl("delete_vhost", name)
    }

    /// Runs `body` with the URL of a user of its own on `virtualHost`, with these permissions (regular
    /// expressions of names, as `rabbitmqctl set_permissions` takes them); deletes the user afterwards.
    static func withUser(
        on virtualHost: String, configure: String, write: String, read: String, _ body: (String) async throws -> Void
    ) async throws {
        let user = "test-user-\(UUID().uuidString.prefix(8))"
        try await rabbitmqctl("add_user", user, user)
        do {
            try await rabbitmqctl("set_permissions", "-p", virtualHost, user, configure, write, read)
            var url = try #require(URLComponents(string: TestWorld.brokerURL(virtualHost: virtualHost)))
            url.user = user
            url.password = user
            try await body(try #require(url.string))
        } catch {
            try? await rabbitmqctl("delete_user", user)
            throw error
        }
        try await rabbitmqctl("delete_user", user)
    }

    /// Runs `rabbitmqctl` against the test node (`RABBITMQCTL`, set by scripts/test.sh); fails the test
    /// when it is not set.
    private static func rabbitmqctl(_ arguments: String...) async throws {
        guard let path = ProcessInfo.processInfo.environment["RABBITMQCTL"], !path.isEmpty else {
            Issue.record("RABBITMQCTL is not set: run the tests through scripts/test.sh")
            throw CancellationError()
        }
        let run = try await ExecutableRun.run(URL(fileURLWithPath: path), arguments)
        let status = await run.status
        guard status == 0 else {
            Issue.record("rabbitmqctl \(arguments.joined(separator: " ")) exited \(status): \(run.standardError)")
            throw CancellationError()
        }
    }
}
