import ArgumentParser
import Foundation
import RabbitMQ

/// `checkout-bench transport`: the Swift transport's consume → publish → ack loop against the C loop.
struct TransportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transport",
        abstract: "Drain persistent messages through the Swift transport and through the C loop, in alternating rounds.",
        discussion: "Prints, per prefetch, the median throughput of both, their ratio, and the CPU time the process spent per message."
    )

    @Option(help: "Broker URL, RABBITMQ_URL when set.")
    var url = EndToEndCommand.environmentBrokerURL
    @Option(help: "Messages per round.")
    var count = 20_000
    @Option(help: "Rounds per implementation and prefetch.")
    var rounds = 5
    @Option(help: "Prefetch values, comma-separated (default: 50,300).", transform: CommaList.parse { UInt16($0) })
    var prefetch: [UInt16] = [50, 300]

    func validate() throws {
        guard count > 0, rounds > 0 else { throw ValidationError("--count and --rounds take positive numbers") }
    }

    func run() async throws {
        let benchmark = TransportBenchmark(endpoint: try AMQPEndpoint(url: url), count: count, rounds: rounds, prefetches: prefetch)
        log("transport benchmark: \(count) messages per round, \(rounds) rounds, broker \(benchmark.endpoint)")
        let samples = try await benchmark.run()
        print(
            "| prefetch | C loop (msg/s, median) | Swift transport (msg/s, median) | Swift / C | C loop CPU (µs/msg) | Swift CPU (µs/msg) |"
        )
        print("|---:|---:|---:|---:|---:|---:|")
        for prefetch in prefetch {
            let c = samples.filter { $0.prefetch == prefetch && $0.implementation == .c }
            let swift = samples.filter { $0.prefetch == prefetch && $0.implementation == .swift }
            let cRate = c.map(\.messagesPerSecond).median, swiftRate = swift.map(\.messagesPerSecond).median
            print(
                String(
                    format: "| %d | %.0f | %.0f | %.2f | %.1f | %.1f |", prefetch, cRate, swiftRate, swiftRate / cRate,
                    c.map(\.cpuMicrosecondsPerMessage).median, swift.map(\.cpuMicrosecondsPerMessage).median))
        }
    }
}
