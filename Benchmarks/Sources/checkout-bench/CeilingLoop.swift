import RabbitMQ

/// The plain-C loop driven like a worker: the benchmark publishes commands into its queue and times
/// each of its answers, on a virtual host of its own on the same broker as the workers.
final class CeilingLoop: Sendable {
    static let commandsQueue = "bench.ceiling.commands"
    static let answersQueue = "bench.ceiling.answers"

    private let endpoint: AMQPEndpoint
    private let prefetch: UInt16
    private let client: BenchClient

    private init(endpoint: AMQPEndpoint, prefetch: UInt16, client: BenchClient) {
        self.endpoint = endpoint
        self.prefetch = prefetch
        self.client = client
    }

    /// Declares its two durable queues, as the worker's command queues are durable, and starts listening.
    static func open(_ endpoint: AMQPEndpoint, prefetch: UInt16) async throws -> CeilingLoop {
        let client = try await BenchClient.open(
            endpoint, declaring: AMQPTopology(queues: [.init(name: commandsQueue), .init(name: answersQueue)]), answersQueue: answersQueue)
        return CeilingLoop(endpoint: endpoint, prefetch: prefetch, client: client)
    }

    /// Publishes `count` commands (flat out, or at `rate` per second) through one run of the C loop.
    ///
    /// One command goes first and is waited for, so that the run starts once the loop consumes.
    func run(count: Int, rate: Double?, label: String) async throws -> RunResult {
        let endpoint = endpoint
        let prefetch = prefetch
        let loop = Task {
            try await RawCLoop.run(
                endpoint: endpoint, from: Self.commandsQueue, to: Self.answersQueue, prefetch: prefetch, count: count + 1)
        }
        do {
            var priming = LoadRun(publisher: client.publisher, collector: client.collector)
            priming.stallTimeout = .seconds(15)
            _ = try await priming.run(RunLedger(idPrefix: "\(label)-prime-", count: 1, expectedType: nil), message: Self.command)
            let result = try await LoadRun(publisher: client.publisher, collector: client.collector, rate: rate)
                .run(RunLedger(idPrefix: "\(label)-", count: count, expectedType: nil), message: Self.command)
            _ = try await loop.value
            return result
        } catch {
            // The loop gives up by itself within ten seconds without frames; its own error says more.
            _ = try await loop.value
            throw error
        }
    }

    func close() async {
        await client.close()
    }

    private static func command(_ index: Int, _ messageID: String) -> AMQPMessage {
        AMQPMessage(
            exchange: "",
            routingKey: commandsQueue,
            properties: AMQPProperties(contentType: "application/json", deliveryMode: .persistent, messageID: messageID),
            body: Workload.syncCart(cart: "k\(messageID)", index: index)
        )
    }
}
