import Foundation

/// PostgreSQL's own ceiling for a use case: pgbench sending the worker's unit of work as one statement
/// (``PgBenchScript``), prepared, from as many clients as keep two cores busy, into a scenario's schema,
/// so that it works on the worker's tables and catalog.
struct PgBench: Sendable {
    static let clients = 8
    static let threads = 2

    let executable: String
    let psql: String
    let schema: PostgresSchema
    /// Where the scripts are written.
    let directory: URL

    /// pgbench on PATH, else the newest Debian/Ubuntu server package's, which keeps it off PATH.
    static var defaultExecutable: String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        if path.split(separator: ":").contains(where: { FileManager.default.isExecutableFile(atPath: "\($0)/pgbench") }) {
            return "pgbench"
        }
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        return versions.sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }
            .map { "/usr/lib/postgresql/\($0)/bin/pgbench" }
            .first { FileManager.default.isExecutableFile(atPath: $0) } ?? "pgbench"
    }

    /// Writes the script and, for PlaceOrder, makes the carts that a run of `round` orders.
    func prepare(_ command: BenchCommand, perClient: Int, round: Int) async throws {
        switch command {
        case .syncCart:
            try Data(PgBenchScript.syncCart.utf8).write(to: script(command))
        case .placeOrder:
            try Data(PgBenchScript.placeOrder.utf8).write(to: script(command))
            try await Subprocess.run(
                psql,
                [
                    schema.libpqURL, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-c",
                    PgBenchScript.carts(round: round, clients: Self.clients, perClient: perClient),
                ])
        }
    }

    /// Runs `perClient` commands on each client and returns pgbench's rate without its connection
    /// time; ``prepare(_:perClient:round:)`` with the same figures must have run. `round` keeps the
    /// ids of one round apart from the others'.
    func run(_ command: BenchCommand, perClient: Int, round: Int) async throws -> Double {
        let output = try await Subprocess.run(
            executable,
            [
                "--no-vacuum", "--protocol=prepared", "--file=\(script(command).path)",
                "--client=\(Self.clients)", "--jobs=\(Self.threads)", "--transactions=\(perClient)",
                "--define=round=\(round)", "--define=seq=0",
                schema.libpqURL,
            ])
        guard let rate = Self.rate(in: output) else {
            throw BenchmarkError(message: "pgbench printed no rate: \(output.suffix(1_000))")
        }
        return rate
    }

    private func script(_ command: BenchCommand) -> URL {
        directory.appendingPathComponent("pgbench-\(command.rawValue).sql")
    }

    /// The rate of `tps = 5123.456789 (without initial connection time)`.
    static func rate(in output: String) -> Double? {
        for line in output.split(separator: "\n") where line.hasPrefix("tps = ") && line.contains("without initial connection time") {
            return line.dropFirst("tps = ".count).split(separator: " ").first.flatMap { Double($0) }
        }
        return nil
    }
}
