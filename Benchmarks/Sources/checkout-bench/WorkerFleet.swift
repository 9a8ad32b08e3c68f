import Foundation
import RabbitMQ

/// The worker processes of one scenario, competing for the queues of one virtual host, and the
/// client connections that send them commands and time their events.
final class WorkerFleet: Sendable {
    /// The contract's exchanges, which the workers declare.
    static let commandsExchange = "checkout.commands"
    static let eventsExchange = "checkout.events"
    static let answersQueue = "bench.answers"
    static let commandQueues = ["checkout.sync-cart", "checkout.place-order"]

    let processes: [WorkerProcess]
    private let client: BenchClient

    private init(processes: [WorkerProcess], client: BenchClient) {
        self.processes = processes
        self.client = client
    }

    /// Starts `count` processes with `settings`, waits until each consumes both command queues, then
    /// listens to every event.
    static func start(
        count: Int,
        executable: String,
        settings: [String: String],
        logPrefix: String,
        virtualHost: BenchVirtualHost,
        endpoint: AMQPEndpoint
    ) async throws -> WorkerFleet {
        var processes: [WorkerProcess] = []
        do {
            for (number, port) in zip(1...count, try FreePorts.pick(count)) {
                processes.append(
                    try WorkerProcess.start(
                        executable: executable, settings: settings, httpPort: port, logPath: "\(logPrefix)-worker\(number).log"))
            }
            try await waitUntilConsuming(processes, on: virtualHost)
            let client = try await BenchClient.open(
                endpoint,
                declaring: AMQPTopology(
                    queues: [.init(name: answersQueue)],
                    bindings: [.init(queue: answersQueue, exchange: eventsExchange, routingKey: "#")]
                ),
                answersQueue: answersQueue)
            return WorkerFleet(processes: processes, client: client)
        } catch {
            for process in processes { await process.stop() }
            throw error
        }
    }

    /// What a run of `count` commands needs first: PlaceOrder orders synced carts, which this syncs
    /// flat out and untimed; SyncCart needs nothing.
    func prepare(_ command: BenchCommand, count: Int, label: String) async throws {
        guard command == .placeOrder else { return }
        _ = try await LoadRun(publisher: client.publisher, collector: client.collector)
            .run(RunLedger(idPrefix: "\(label)-cart-", count: count, expectedType: BenchCommand.syncCart.acceptedEvent)) {
                index, messageID in
                Self.command(.syncCart, messageID: messageID, body: Workload.syncCart(cart: Self.cart(label, index), index: index))
            }
    }

    /// Sends `count` commands of one kind, flat out or at `rate` per second, and times each to its
    /// event; ``prepare(_:count:label:)`` with the same label must have run.
    func run(_ command: BenchCommand, count: Int, rate: Double?, label: String) async throws -> RunResult {
        try await LoadRun(publisher: client.publisher, collector: client.collector, rate: rate)
            .run(RunLedger(idPrefix: "\(label)-", count: count, expectedType: command.acceptedEvent)) { index, messageID in
                let body =
                    switch command {
                    case .syncCart: Workload.syncCart(cart: Self.cart(label, index), index: index)
                    case .placeOrder: Workload.placeOrder(cart: Self.cart(label, index))
                    }
                return Self.command(command, messageID: messageID, body: body)
            }
    }

    /// The statements every process has sent its database, as their `/metrics` show them.
    func roundTrips() async throws -> Int {
        var total = 0
        for process in processes { total += try await process.roundTrips() }
        return total
    }

    /// The processes' time per command so far, together.
    func timings() async throws -> WorkerTimings {
        var total = WorkerTimings()
        for process in processes { total = total + (try await process.timings()) }
        return total
    }

    func memory() throws -> [ProcessMemory] {
        try processes.map { try $0.memory() }
    }

    /// Closes the client connections and stops every process with SIGTERM; returns their exit statuses.
    func stop() async -> [Int32] {
        await client.close()
        var statuses: [Int32] = []
        for process in processes { statuses.append(await process.stop()) }
        return statuses
    }

    private static func waitUntilConsuming(
        _ processes: [WorkerProcess], on virtualHost: BenchVirtualHost, timeout: Duration = .seconds(90)
    ) async throws {
        let deadline = ContinuousClock.now + timeout
        while true {
            for process in processes { try process.checkRunning() }
            let consumers = try await virtualHost.consumers()
            if commandQueues.allSatisfy({ consumers[$0, default: 0] >= processes.count }) { return }
            guard ContinuousClock.now < deadline else {
                throw BenchmarkError(
                    message:
                        "\(processes.count) checkout-worker processes did not all consume within \(timeout); logs: \(processes.map(\.logPath))"
                )
            }
            try await Task.sleep(for: .milliseconds(500))
        }
    }

    private static func cart(_ label: String, _ index: Int) -> String {
        "k\(label)-\(index)"
    }

    private static func command(_ command: BenchCommand, messageID: String, body: [UInt8]) -> AMQPMessage {
        AMQPMessage(
            exchange: commandsExchange,
            routingKey: command.routingKey,
            properties: AMQPProperties(contentType: "application/json", deliveryMode: .persistent, messageID: messageID),
            body: body
        )
    }
}
