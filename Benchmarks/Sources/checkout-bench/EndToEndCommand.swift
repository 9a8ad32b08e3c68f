import ArgumentParser
import Foundation
import RabbitMQ

/// `checkout-bench end-to-end`: commands published → `checkout-worker` processes → result events.
struct EndToEndCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "end-to-end",
        abstract: "Throughput and latency from publish to result event through real worker processes, against the C loop.",
        discussion: """
            For each scenario (use case × store × processes) it starts the built checkout-worker on a virtual host of its own, \
            measures the peak throughput flat out in rounds alternating with the C loop (and, on PostgreSQL, with pgbench sending \
            the same unit of work as one statement), the database round trips per command from the workers' /metrics, \
            the workers' CPU per command, and the broker's and PostgreSQL's when they run on this host, then p50/p99/p99.9 at \
            half the peak rate, and each worker's resident memory (VmHWM). Needs rabbitmqctl for the virtual hosts and, for \
            PostgreSQL, psql and pgbench.
            """,
        aliases: ["e2e"]
    )

    static var environmentBrokerURL: String {
        ProcessInfo.processInfo.environment["RABBITMQ_URL"].flatMap { $0.isEmpty ? nil : $0 } ?? "amqp://guest:guest@127.0.0.1:5672/%2F"
    }

    @Option(help: "Broker URL, RABBITMQ_URL when set; its virtual host is not used.")
    var url = Self.environmentBrokerURL
    @Option(help: "rabbitmqctl for the broker, RABBITMQCTL when set: it makes and deletes the virtual hosts.")
    var rabbitmqctl = ProcessInfo.processInfo.environment["RABBITMQCTL"].flatMap { $0.isEmpty ? nil : $0 } ?? "rabbitmqctl"
    @Option(help: "PostgreSQL URL; each scenario works in a schema of its own (default: POSTGRES_URL).")
    var postgresURL: String?
    @Option(help: "psql, to make and drop those schemas.")
    var psql = "psql"
    @Option(help: "pgbench, for PostgreSQL's own rate (default: on PATH, else the newest /usr/lib/postgresql/*/bin/pgbench).")
    var pgbench = PgBench.defaultExecutable
    @Option(help: "The checkout-worker executable (default: the worker's package's build of this checkout-bench's configuration).")
    var worker: String?

    @Option(help: "Commands per round.")
    var count = 5_000
    @Option(help: "Flat-out rounds, then as many latency rounds, per scenario.")
    var rounds = 3
    @Option(help: "CHECKOUT_PREFETCH of the workers (default: the worker's), and the C loop's prefetch.")
    var prefetch: UInt16 = 50
    @Option(help: "CHECKOUT_CONCURRENCY of the workers (default: unset, the worker's own, derived from the prefetch).")
    var concurrency: Int?
    @Option(help: "CHECKOUT_DATABASE_POOL_SIZE of the workers (default: unset, the worker's own).")
    var poolSize: Int?
    @Option(
        help: "Commands per second of every scenario's latency rounds, to compare two builds at one rate (default: half its median peak).")
    var latencyRate: Double?
    @Option(help: "CHECKOUT_LOG_LEVEL of the workers (their logs go to files).")
    var workerLogLevel = "info"

    @Option(help: "Use cases, comma-separated (default: sync-cart,place-order).", transform: CommaList.parse { BenchCommand(rawValue: $0) })
    var commands: [BenchCommand] = BenchCommand.allCases
    @Option(help: "Stores, comma-separated (default: memory,sqlite,postgres).", transform: CommaList.parse { StoreKind(rawValue: $0) })
    var stores: [StoreKind] = StoreKind.allCases
    @Option(
        help: "Worker processes per scenario, comma-separated (default: 1,2).",
        transform: CommaList.parse { Int($0).flatMap { $0 > 0 ? $0 : nil } })
    var processes: [Int] = [1, 2]

    func validate() throws {
        guard count > 0, rounds > 0, prefetch > 0, (concurrency ?? 1) > 0, (poolSize ?? 1) > 0, (latencyRate ?? 1) > 0 else {
            throw ValidationError("--count, --rounds, --prefetch, --concurrency, --pool-size and --latency-rate take positive numbers")
        }
    }

    func run() async throws {
        let started = ContinuousClock.now
        let executable = try workerExecutable()
        let (scenarios, leftOut) = Scenario.plan(commands: commands, stores: stores, processes: processes)
        let benchmark = EndToEndBenchmark(
            broker: try AMQPEndpoint(url: url),
            workerExecutable: executable,
            rabbitmqctl: rabbitmqctl,
            psql: psql,
            pgbenchExecutable: pgbench,
            postgresURL: postgresURL ?? ProcessInfo.processInfo.environment["POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 },
            count: count,
            rounds: rounds,
            prefetch: prefetch,
            concurrency: concurrency,
            poolSize: poolSize,
            latencyRate: latencyRate,
            workerLogLevel: workerLogLevel,
            directory: FileManager.default.temporaryDirectory.appendingPathComponent(
                "checkout-bench-\(ProcessInfo.processInfo.processIdentifier)")
        )
        log(
            "end-to-end benchmark: \(count) commands per round, \(rounds) rounds, prefetch \(prefetch), "
                + "concurrency \(concurrency.map(String.init) ?? "the worker's default"), pool \(poolSize.map(String.init) ?? "the worker's default"), "
                + "broker \(benchmark.broker), worker \(executable)")
        for line in leftOut { log("left out: \(line)") }
        let work = Task { try await benchmark.run(scenarios) }
        let interruption = Interruption(cancelling: work)
        defer { interruption.end() }
        let results: [ScenarioResult]
        do {
            results = try await work.value
        } catch is CancellationError {
            throw ExitCode(130)
        }
        print(EndToEndReport(results: results, leftOut: leftOut, cores: ProcessInfo.processInfo.activeProcessorCount).markdown)
        log("took \(Int((ContinuousClock.now - started).seconds)) s")
    }

    private func workerExecutable() throws -> String {
        guard let path = worker ?? Self.defaultWorker(forBenchAt: Self.ownExecutable) else {
            throw ValidationError("this checkout-bench did not run from a build directory; give --worker")
        }
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw ValidationError(
                "no checkout-worker at \(path); build it at the repository's root (swift build -c release --product checkout-worker) "
                    + "or give --worker")
        }
        return path
    }

    /// Where `swift build` in the worker's package, the folder above this benchmark package, puts the
    /// checkout-worker of the same triple and configuration as the checkout-bench at `bench`: the bench
    /// measures the worker that the same checkout built, in release when the bench is a release build.
    /// Nil when `bench` is not in a `.build` directory.
    static func defaultWorker(forBenchAt bench: String) -> String? {
        let parts = URL(fileURLWithPath: bench).standardizedFileURL.pathComponents
        guard let build = parts.lastIndex(of: ".build"), build >= 2, build < parts.count - 1 else { return nil }
        let workerPackage = parts[..<(build - 1)]
        let configuration = parts[(build + 1)..<(parts.count - 1)]
        return NSString.path(withComponents: Array(workerPackage) + [".build"] + configuration + ["checkout-worker"])
    }

    /// This process's executable, through /proc so that a relative argv[0] or a symlink does not matter.
    private static var ownExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}
