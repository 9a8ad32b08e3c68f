import Foundation
import RabbitMQ

/// `checkout-bench transport [--url URL] [--count N] [--rounds R] [--prefetch 50,300]`
///
/// Prints, per prefetch, the median throughput of the Swift transport and of the plain C loop and their
/// ratio, as a Markdown table for BENCHMARKS.md.
@main
struct CheckoutBench {
    static func main() async {
        do {
            let options = try Options(arguments: Array(CommandLine.arguments.dropFirst()))
            let benchmark = TransportBenchmark(endpoint: try AMQPEndpoint(url: options.url), count: options.count,
                                               rounds: options.rounds, prefetches: options.prefetches)
            log("transport benchmark: \(options.count) messages per round, \(options.rounds) rounds, broker \(benchmark.endpoint)")
            let samples = try await benchmark.run()
            print("| prefetch | C loop (msg/s, median) | Swift transport (msg/s, median) | Swift / C |")
            print("|---:|---:|---:|---:|")
            for prefetch in options.prefetches {
                let c = median(samples.filter { $0.prefetch == prefetch && $0.implementation == .c }.map(\.messagesPerSecond))
                let swift = median(samples.filter { $0.prefetch == prefetch && $0.implementation == .swift }.map(\.messagesPerSecond))
                print(String(format: "| %d | %.0f | %.0f | %.2f |", prefetch, c, swift, swift / c))
            }
        } catch {
            log("checkout-bench: \(error)")
            exit(1)
        }
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
}

struct Options {
    var url = ProcessInfo.processInfo.environment["RABBITMQ_URL"] ?? "amqp://guest:guest@127.0.0.1:5672/%2F"
    var count = 20_000
    var rounds = 5
    var prefetches: [UInt16] = [50, 300]

    init(arguments: [String]) throws {
        var remaining = arguments[...]
        if remaining.first == "transport" { remaining = remaining.dropFirst() }
        while let flag = remaining.popFirst() {
            guard let value = remaining.popFirst() else { throw BenchmarkError(message: "\(flag) needs a value") }
            switch flag {
            case "--url": url = value
            case "--count": count = try Self.positive(value, flag)
            case "--rounds": rounds = try Self.positive(value, flag)
            case "--prefetch": prefetches = try value.split(separator: ",").map { UInt16(try Self.positive(String($0), flag)) }
            default: throw BenchmarkError(message: "unknown option \(flag); use --url, --count, --rounds or --prefetch")
            }
        }
    }

    private static func positive(_ text: String, _ flag: String) throws -> Int {
        guard let number = Int(text), number > 0 else { throw BenchmarkError(message: "\(flag) takes a positive number, not '\(text)'") }
        return number
    }
}
