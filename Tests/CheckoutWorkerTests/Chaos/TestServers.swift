import Foundation
import NIOCore
import NIOPosix

/// `scripts/test-servers.sh`, for the suites that start, stop and break servers of their own: the
/// three-node RabbitMQ cluster (`start-cluster`), its nodes' `rabbitmqctl`, and stopping one node.
///
/// The script is `$TEST_SERVERS` (printed by `test-servers.sh cluster-env`), or the repository's own.
enum TestServers {
    static let script: String =
        ProcessInfo.processInfo.environment["TEST_SERVERS"].flatMap { $0.isEmpty ? nil : $0 }
        ?? URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/test-servers.sh").path

    /// The AMQP URL of each cluster node, node 1 first, on the default vhost.
    static let clusterURLs: [String] =
        ProcessInfo.processInfo.environment["RABBITMQ_CLUSTER_URLS"]
        .flatMap { $0.isEmpty ? nil : $0.split(separator: ",").map(String.init) }
        ?? [22672, 22682, 22692].map { "amqp://guest:guest@127.0.0.1:\($0)/%2F" }

    /// Node `node`'s (1-based) URL on `vhost`.
    static func url(node: Int, vhost: String) -> String {
        var components = URLComponents(string: clusterURLs[node - 1])!
        components.percentEncodedPath =
            "/" + (vhost.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? vhost)
        return components.string!
    }

    /// Whether node `node`'s AMQP port takes a TCP connection now: how a test confirms that a node
    /// it stopped is down, from outside the broker.
    static func acceptsConnections(node: Int) async -> Bool {
        guard let components = URLComponents(string: clusterURLs[node - 1]), let port = components.port else { return false }
        do {
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(.seconds(3))
                .connect(host: components.host ?? "127.0.0.1", port: port)
                .get()
            try? await channel.close()
            return true
        } catch {
            return false
        }
    }

    /// `rabbitmqctl ARGS…` against cluster node `node`; what it printed.
    @discardableResult
    static func ctl(node: Int, _ arguments: String..., timeout: Duration = .seconds(90)) async throws -> String {
        try await run(
            ["cluster-ctl", "\(node)", "--timeout", "\(Int(timeout.components.seconds))"] + arguments, timeout: timeout + .seconds(10))
    }

    /// Stops cluster node `node` as an operator would (`rabbitmqctl stop`), Erlang VM and all.
    static func stopNode(_ node: Int) async throws {
        try await run(["stop-cluster-node", "\(node)"], timeout: .seconds(120))
    }

    /// Starts cluster node `node` again; it rejoins the cluster from its own data.
    static func startNode(_ node: Int) async throws {
        try await run(["start-cluster-node", "\(node)"], timeout: .seconds(180))
    }

    /// Runs the script with `arguments` off the cooperative pool; throws with its output when it
    /// fails or outlives `timeout` (then it is killed).
    ///
    /// The output goes to a file, not a pipe: a server the script starts inherits the descriptors it
    /// was given, and would hold a pipe open, so that reading it to its end would wait for the server.
    @discardableResult
    static func run(_ arguments: [String], timeout: Duration) async throws -> String {
        let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("test-servers-\(UUID().uuidString.prefix(8)).log")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: outputFile) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: script)
        process.arguments = arguments
        let output = try FileHandle(forWritingTo: outputFile)
        defer { try? output.close() }
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            Thread.detachNewThread {
                do {
                    try process.run()
                } catch {
                    return continuation.resume(throwing: error)
                }
                let deadline = ContinuousClock.now + timeout
                while process.isRunning, ContinuousClock.now < deadline {
                    Thread.sleep(forTimeInterval: 0.05)
                }
                if process.isRunning {
                    process.terminate()
                    process.waitUntilExit()
                }
                continuation.resume()
            }
        }
        let text = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw TestServersError(
                arguments: arguments, status: process.terminationStatus, killed: process.terminationReason == .uncaughtSignal,
                timeout: timeout, output: text)
        }
        return text
    }
}
