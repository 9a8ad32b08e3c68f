import RabbitMQ

/// The benchmark's side of a run: one connection that publishes commands, and one that declares
/// `topology` and collects every answer arriving in `answersQueue`.
struct BenchClient: Sendable {
    let publisher: AMQPConnection
    let collector: AnswerCollector
    private let listener: AMQPConnection
    private let collecting: Task<Void, Never>

    static func open(_ endpoint: AMQPEndpoint, declaring topology: AMQPTopology, answersQueue: String) async throws -> BenchClient {
        let publisher = try await AMQPConnection.connect(AMQPConfiguration(endpoints: [endpoint]), logger: ConnectionLogger.shared)
        let listener = try await AMQPConnection.connect(AMQPConfiguration(endpoints: [endpoint]), logger: ConnectionLogger.shared)
        try await listener.declare(topology)
        let consumer = try await listener.consume(queue: answersQueue, prefetch: 1_000)
        let collector = AnswerCollector()
        return BenchClient(
            publisher: publisher, collector: collector, listener: listener, collecting: Task { await collector.collect(consumer) })
    }

    func close() async {
        collecting.cancel()
        await listener.close()
        await publisher.close()
    }
}
