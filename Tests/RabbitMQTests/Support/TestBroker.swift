import Foundation
import Logging
import RabbitMQ
import Testing

/// The private RabbitMQ node that `scripts/test.sh` starts, found through the environment.
enum TestBroker {
    static var url: String { environment("RABBITMQ_URL") ?? "amqp://guest:guest@127.0.0.1:21672/%2F" }
    static var tlsURL: String { environment("RABBITMQ_TLS_URL") ?? "amqps://guest:guest@localhost:21671/%2F" }
    static var caFile: String? { environment("RABBITMQ_CA_FILE") }
    static var wrongCAFile: String? { environment("RABBITMQ_WRONG_CA_FILE") }
    static var clientCertificateFile: String? { environment("RABBITMQ_CLIENT_CERT_FILE") }
    static var clientKeyFile: String? { environment("RABBITMQ_CLIENT_KEY_FILE") }

    static let logger: Logger = {
        var logger = Logger(label: "rabbitmq-tests")
        logger.logLevel = ProcessInfo.processInfo.environment["TEST_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .critical
        return logger
    }()

    static func configuration(urls: String? = nil, heartbeatSeconds: Int = 5) throws -> AMQPConfiguration {
        var configuration = try AMQPConfiguration(urls: urls ?? url)
        configuration.heartbeatSeconds = heartbeatSeconds
        configuration.connectTimeout = .seconds(5)
        configuration.reconnectBackoff = ReconnectBackoff(initialDelay: .milliseconds(100), maximumDelay: .seconds(1))
        configuration.connectionName = "rabbitmq-tests"
        return configuration
    }

    static func connect(_ configuration: AMQPConfiguration? = nil) async throws -> AMQPConnection {
        try await AMQPConnection.connect(configuration ?? self.configuration(), logger: logger)
    }

    /// A queue name no other test uses, so that suites can run in parallel on one broker.
    static func uniqueName(_ prefix: String) -> String {
        "test.\(prefix).\(UUID().uuidString.prefix(8))"
    }

    /// Declares a non-durable, auto-deleting queue for one test.
    static func temporaryQueue(_ prefix: String, on connection: AMQPConnection, arguments: AMQPFieldTable = [:]) async throws -> String {
        let name = uniqueName(prefix)
        try await connection.declare(
            AMQPTopology(queues: [
                .init(name: name, durable: false, autoDelete: false, arguments: arguments)
            ]))
        return name
    }

    /// Runs `rabbitmqctl` against the test node; fails the test when the script did not say where it is.
    static func rabbitmqctl(_ arguments: String...) throws {
        guard let path = environment("RABBITMQCTL") else {
            Issue.record("RABBITMQCTL is not set: run the tests through scripts/test.sh")
            throw CancellationError()
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            throw RabbitMQCtlError(arguments: arguments, status: process.terminationStatus, output: text)
        }
    }

    /// What a program on this machine prints, run to its end.
    static func output(of path: String, _ arguments: String...) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text
    }

    private static func environment(_ name: String) -> String? {
        ProcessInfo.processInfo.environment[name].flatMap { $0.isEmpty ? nil : $0 }
    }
}

struct RabbitMQCtlError: Error, CustomStringConvertible {
    var arguments: [String]
    var status: Int32
    var output: String
    var description: String { "rabbitmqctl \(arguments.joined(separator: " ")) exited \(status): \(output)" }
}

/// Waits for a condition with a bound, polling; the tests never wait unboundedly on the broker.
func eventually(timeout: Duration = .seconds(20), _ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try await Task.sleep(for: .milliseconds(50))
    }
    return try await condition()
}

/// Collects deliveries from a consumer into an actor-protected list, acking each one if asked.
actor DeliveryCollector {
    private(set) var deliveries: [AMQPDelivery] = []
    private var task: Task<Void, Never>?

    func start(_ consumer: AMQPConsumer, ack: Bool) {
        task = Task {
            for await delivery in consumer {
                if ack { delivery.ack() }
                self.append(delivery)
            }
        }
    }

    private func append(_ delivery: AMQPDelivery) { deliveries.append(delivery) }

    var count: Int { deliveries.count }

    func stop() { task?.cancel() }
}

extension String {
    var bytes: [UInt8] { Array(utf8) }
}
