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
