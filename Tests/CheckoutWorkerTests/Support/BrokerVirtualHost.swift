import Foundation

/// A RabbitMQ virtual host of one test's own on the test node, made and deleted with `$RABBITMQCTL`.
///
/// The executable declares the contract's fixed names (`checkout.commands`, `checkout.place-order`, …),
/// so workers of tests running side by side would share queues on one vhost; on vhosts of their own
/// they cannot meet. Deleting the vhost also closes every connection to it, and only those.
struct BrokerVirtualHost: Sendable {
    let name: String
    /// `RABBITMQ_URL` with this vhost, for `CHECKOUT_AMQP_URL` and the test's client.
    let url: String

    /// Makes a vhost named `test.<prefix>.<random>` and lets `guest` do everything on it.
    static func create(_ prefix: String) async throws -> BrokerVirtualHost {
        let name = "test.\(prefix).\(UUID().uuidString.prefix(8).lowercased())"
        guard var components = URLComponents(string: TestWorld.brokerURL) else {
            throw BrokerVirtualHostError(arguments: [], status: 0, output: "RABBITMQ_URL is not a URL: \(TestWorld.brokerURL)")
        }
        components.percentEncodedPath =
            "/" + (name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? name)
        let vhost = BrokerVirtualHost(name: name, url: components.string ?? TestWorld.brokerURL)
        try await vhost.add()
        return vhost
    }

    /// Adds the vhost (again, after ``delete()``) with `guest`'s permissions.
    func add() async throws {
        try await Self.rabbitmqctl("add_vhost", name)
        try await Self.rabbitmqctl("set_permissions", "-p", name, "guest", ".*", ".*", ".*")
    }

    /// Deletes the vhost with its queues and exchanges, closing its connections.
    func delete() async throws {
        try await Self.rabbitmqctl("delete_vhost", name)
    }

    /// Runs `rabbitmqctl` against the test node, off the cooperative pool, bounded to a minute.
    private static func rabbitmqctl(_ arguments: String...) async throws {
        guard let path = ProcessInfo.processInfo.environment["RABBITMQCTL"], !path.isEmpty else {
            throw BrokerVirtualHostError(
                arguments: arguments, status: -1,
                output: """
                    RABBITMQCTL is not set: run the tests through scripts/test.sh, or first \
                    eval "$(scripts/test-servers.sh env)"
                    """)
        }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            Thread.detachNewThread {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: path)
                process.arguments = ["--timeout", "60"] + arguments
                let output = Pipe()
                process.standardOutput = output
                process.standardError = output
                do {
                    try process.run()
                } catch {
                    return continuation.resume(throwing: error)
                }
                // Read to the end before waiting, so a full pipe cannot stall rabbitmqctl.
                let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                guard process.terminationStatus == 0 else {
                    return continuation.resume(
                        throwing: BrokerVirtualHostError(arguments: arguments, status: process.terminationStatus, output: text))
                }
                continuation.resume()
            }
        }
    }
}
