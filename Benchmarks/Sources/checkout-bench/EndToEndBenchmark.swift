import Foundation
import Histogram
import RabbitMQ

/// Publish → worker process → result event, for each scenario, with the C loop measured in the same
/// invocation on the same broker as the ceiling.
///
/// Every scenario gets a virtual host of its own (and a schema or file of its own), fresh worker
/// processes configured only through `CHECKOUT_*`, and a warm-up. Its flat-out rounds alternate with
/// rounds of the C loop and, on PostgreSQL, of pgbench, so that the machine's noise hits them alike;
/// its latency rounds then run at half its median peak rate, or at the rate `--latency-rate` sets.
struct EndToEndBenchmark {
    /// Longer than the workers take to export their counters (every two seconds), so that a read after
    /// this pause counts everything before it.
    static let metricsLag: Duration = .milliseconds(2_500)

    /// The broker; each scenario replaces the virtual host with its own.
    var broker: AMQPEndpoint
    var workerExecutable: String
    var rabbitmqctl: String
    var psql: String
    var pgbenchExecutable: String
    var postgresURL: String?
    var count: Int
    var rounds: Int
    var prefetch: UInt16
    /// `CHECKOUT_CONCURRENCY` and `CHECKOUT_DATABASE_POOL_SIZE`; nil leaves the worker's own default.
    var concurrency: Int?
    var poolSize: Int?
    /// The scenarios' latency rounds' rate; nil: half each one's median peak.
    var latencyRate: Double?
    var workerLogLevel: String
    /// Logs, catalog and SQLite files; kept when a run fails, for its logs.
    var directory: URL
    /// Part of every name the benchmark makes, so that two invocations never meet.
    var runID = "\(ProcessInfo.processInfo.processIdentifier)"

    func run(_ scenarios: [Scenario]) async throws -> [ScenarioResult] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let catalog = directory.appendingPathComponent("catalog.json")
        try Workload.catalogJSON().write(to: catalog)

        let ceilingHost = try await BenchVirtualHost.create("checkout-bench-\(runID)-ceiling", for: broker.user, rabbitmqctl: rabbitmqctl)
        let ceiling: CeilingLoop
        do {
            ceiling = try await CeilingLoop.open(endpoint(ceilingHost.name), prefetch: prefetch)
        } catch {
            await ceilingHost.delete()
            throw error
        }
        do {
            let server = await postgresServer(for: scenarios)
            let brokerPIDs = locateBroker()
            var results = [try await measureCeiling(ceiling, brokerPIDs: brokerPIDs)]
            for (index, scenario) in scenarios.enumerated() {
                results.append(
                    try await measure(
                        scenario, number: index + 1, ceiling: ceiling, server: server, brokerPIDs: brokerPIDs, catalog: catalog.path))
            }
            await ceiling.close()
            await ceilingHost.delete()
            try? FileManager.default.removeItem(at: directory)
            return results
        } catch {
            await ceiling.close()
            await ceilingHost.delete()
            log("logs kept in \(directory.path)")
            throw error
        }
    }

    /// The PostgreSQL server whose CPU the PostgreSQL scenarios read, when it runs on this host.
    private func postgresServer(for scenarios: [Scenario]) async -> PostgresServerCPU? {
        guard let postgresURL, scenarios.contains(where: { $0.store == .postgres }) else { return nil }
        let server = await PostgresServerCPU.locate(url: postgresURL, psql: psql)
        if let server {
            log("PostgreSQL's CPU: the postmaster (pid \(server.postmaster)) and its children")
        } else {
            log("PostgreSQL's CPU is not measured: /proc on this host does not show its server")
        }
        return server
    }

    /// The broker's process when it runs on this host, found by the port it listens on, so that its
    /// CPU per command can be read; none elsewhere.
    private func locateBroker() -> [Int32] {
        let pid = ["127.0.0.1", "::1", "localhost"].contains(broker.host) ? ListeningProcess.pid(port: broker.port) : nil
        if let pid {
            log("RabbitMQ's CPU: the process listening on port \(broker.port) (pid \(pid))")
        } else {
            log("RabbitMQ's CPU is not measured: no process of this host's /proc listens on \(broker.host):\(broker.port)")
        }
        return pid.map { [$0] } ?? []
    }

    /// The C loop alone: its peak, and its latency at half of it.
    private func measureCeiling(_ ceiling: CeilingLoop, brokerPIDs: [Int32]) async throws -> ScenarioResult {
        var peaks: [Double] = []
        var brokerCPU: [Double] = []
        for round in 1...rounds {
            let before = ThreadGroupCPU.readings(of: brokerPIDs)
            let result = try await ceiling.run(count: count, rate: nil, label: "0-f\(round)")
            peaks.append(result.commandsPerSecond)
            var line = String(format: "C loop: round %d flat out %.0f msg/s", round, result.commandsPerSecond)
            if let microseconds = cpuPerCommand(of: brokerPIDs, since: before) {
                brokerCPU.append(microseconds)
                line += String(format: " (RabbitMQ CPU %.0f µs per message)", microseconds)
            }
            log(line)
        }
        let rate = peaks.median / 2
        var latencies = RunLedger.emptyLatencies
        for round in 1...rounds {
            let result = try await ceiling.run(count: count, rate: rate, label: "0-h\(round)")
            latencies.add(result.latencies)
            log(String(format: "C loop: round %d at %.0f msg/s: ", round, rate) + LatencySummary(microseconds: result.latencies).sentence)
        }
        return ScenarioResult(
            scenario: nil, peakRates: peaks, ceilingRates: [], latencyRate: rate,
            latencies: LatencySummary(microseconds: latencies), memory: [], brokerCPUPerCommand: brokerCPU)
    }

    private func measure(
        _ scenario: Scenario, number: Int, ceiling: CeilingLoop, server: PostgresServerCPU?, brokerPIDs: [Int32], catalog: String
    ) async throws -> ScenarioResult {
        let name = "checkout-bench-\(runID)-\(number)"
        log("\(scenario): virtual host \(name)")
        let host = try await BenchVirtualHost.create(name, for: broker.user, rabbitmqctl: rabbitmqctl)
        var schema: PostgresSchema?
        do {
            let databaseURL: String
            switch scenario.store {
            case .memory:
                databaseURL = "memory://"
            case .sqlite:
                databaseURL = "sqlite://" + directory.appendingPathComponent("\(name).sqlite").path
            case .postgres:
                guard let postgresURL else {
                    throw BenchmarkError(message: "\(scenario) needs --postgres-url (or POSTGRES_URL); or leave postgres out of --stores")
                }
                let made = try await PostgresSchema.create("checkout_bench_\(runID)_\(number)", in: postgresURL, psql: psql)
                schema = made
                databaseURL = made.workerURL
            }
            let fleet = try await WorkerFleet.start(
                count: scenario.processes,
                executable: workerExecutable,
                settings: workerSettings(virtualHost: name, databaseURL: databaseURL, catalog: catalog),
                logPrefix: directory.appendingPathComponent(name).path,
                virtualHost: host,
                endpoint: endpoint(name)
            )
            let result: ScenarioResult
            do {
                let pgbench = schema.map { PgBench(executable: pgbenchExecutable, psql: psql, schema: $0, directory: directory) }
                result = try await measure(
                    scenario, number: number, on: fleet, ceiling: ceiling, pgbench: pgbench, server: pgbench == nil ? nil : server,
                    brokerPIDs: brokerPIDs)
            } catch {
                _ = await fleet.stop()
                throw error
            }
            let statuses = await fleet.stop()
            for (process, status) in zip(fleet.processes, statuses) where status != 0 {
                log("\(scenario): checkout-worker (pid \(process.pid)) exited with \(status) after SIGTERM; log: \(process.logPath)")
            }
            await schema?.drop()
            await host.delete()
            return result
        } catch {
            await schema?.drop()
            await host.delete()
            throw error
        }
    }

    private func measure(
        _ scenario: Scenario,
        number: Int,
        on fleet: WorkerFleet,
        ceiling: CeilingLoop,
        pgbench: PgBench?,
        server: PostgresServerCPU?,
        brokerPIDs: [Int32]
    ) async throws -> ScenarioResult {
        log("\(scenario): consuming, " + Self.describe(try fleet.memory()))
        let warmUpCount = min(count, 1_000)
        try await fleet.prepare(scenario.command, count: warmUpCount, label: "\(number)-w")
        let warmUp = try await fleet.run(scenario.command, count: warmUpCount, rate: nil, label: "\(number)-w")
        log(String(format: "\(scenario): warm-up %.0f cmd/s", warmUp.commandsPerSecond))
        try await pgbench?.schema.analyze()

        var peaks: [Double] = []
        var ceilings: [Double] = []
        var roundTrips: [Double] = []
        var pgbenchRates: [Double] = []
        var postgresCPU: [Double] = []
        var pgbenchPostgresCPU: [Double] = []
        var workerCPU: [Double] = []
        var brokerCPU: [Double] = []
        for round in 1...rounds {
            let raw = try await ceiling.run(count: count, rate: nil, label: "\(number)-c\(round)")
            ceilings.append(raw.commandsPerSecond)
            let worker = try await flatOut(scenario, on: fleet, label: "\(number)-f\(round)", server: server, brokerPIDs: brokerPIDs)
            peaks.append(worker.run.commandsPerSecond)
            var line = String(
                format: "\(scenario): round %d flat out %.0f cmd/s (C loop %.0f msg/s, ratio %.2f",
                round, worker.run.commandsPerSecond, raw.commandsPerSecond, worker.run.commandsPerSecond / raw.commandsPerSecond)
            if let perCommand = worker.roundTrips {
                roundTrips.append(perCommand)
                line += String(format: "; %.2f database round trips per command", perCommand)
            }
            if let microseconds = worker.workerCPU {
                workerCPU.append(microseconds)
                line += String(format: "; worker CPU %.0f µs per command", microseconds)
            }
            if let microseconds = worker.brokerCPU {
                brokerCPU.append(microseconds)
                line += String(format: "; RabbitMQ CPU %.0f µs per command", microseconds)
            }
            if let microseconds = worker.postgresCPU {
                postgresCPU.append(microseconds)
                line += String(format: "; PostgreSQL CPU %.0f µs per command", microseconds)
            }
            if let pgbench {
                let postgres = try await pgbenchRound(pgbench, scenario.command, round: round, server: server)
                pgbenchRates.append(postgres.rate)
                line += String(format: "; pgbench %.0f TPS, ratio %.2f", postgres.rate, worker.run.commandsPerSecond / postgres.rate)
                if let microseconds = postgres.postgresCPU {
                    pgbenchPostgresCPU.append(microseconds)
                    line += String(format: ", PostgreSQL CPU %.0f µs per transaction", microseconds)
                }
            }
            log(line + ")")
        }

        let rate = latencyRate ?? peaks.median / 2
        var latencies = RunLedger.emptyLatencies
        let timingsBefore = try await fleet.timings()
        for round in 1...rounds {
            let label = "\(number)-h\(round)"
            try await fleet.prepare(scenario.command, count: count, label: label)
            let result = try await fleet.run(scenario.command, count: count, rate: rate, label: label)
            latencies.add(result.latencies)
            log(
                String(format: "\(scenario): round %d at %.0f cmd/s: ", round, rate)
                    + LatencySummary(microseconds: result.latencies).sentence)
        }
        let timings = try await fleet.timings().since(timingsBefore)
        if let processing = timings.processingMilliseconds, let confirm = timings.confirmMilliseconds {
            log(
                String(
                    format: "\(scenario): in the latency rounds a command took the workers %.2f ms from delivery to ack, "
                        + "%.2f ms of it waiting for the broker to confirm its event (means)", processing, confirm))
        }
        let memory = try fleet.memory()
        log("\(scenario): after the rounds, " + Self.describe(memory))
        return ScenarioResult(
            scenario: scenario, peakRates: peaks, ceilingRates: ceilings, latencyRate: rate, isLatencyRateSet: latencyRate != nil,
            latencies: LatencySummary(microseconds: latencies), memory: memory,
            roundTripsPerCommand: roundTrips, pgbenchRates: pgbenchRates,
            postgresCPUPerCommand: postgresCPU, postgresCPUPerPgbenchTransaction: pgbenchPostgresCPU,
            workerCPUPerCommand: workerCPU, brokerCPUPerCommand: brokerCPU, latencyTimings: timings
        )
    }

    /// One flat-out round of the workers, with what it cost per command: the workers' CPU, the
    /// broker's when it runs on this host, the statements the workers counted (read after a pause for
    /// their sampling, before and after) and, when the server is on this host, PostgreSQL's CPU.
    private func flatOut(
        _ scenario: Scenario, on fleet: WorkerFleet, label: String, server: PostgresServerCPU?, brokerPIDs: [Int32]
    ) async throws
        -> (run: RunResult, roundTrips: Double?, postgresCPU: Double?, workerCPU: Double?, brokerCPU: Double?)
    {
        let counted = scenario.store != .memory
        try await fleet.prepare(scenario.command, count: count, label: label)
        if counted { try await Task.sleep(for: Self.metricsLag) }
        let roundTripsBefore = counted ? try await fleet.roundTrips() : 0
        let workers = fleet.processes.map(\.pid)
        let before = ThreadGroupCPU.readings(of: workers + brokerPIDs)
        let (run, cpu) = try await Self.measuringCPU(of: server) {
            try await fleet.run(scenario.command, count: count, rate: nil, label: label)
        }
        let workerCPU = cpuPerCommand(of: workers, since: before)
        let brokerCPU = cpuPerCommand(of: brokerPIDs, since: before)
        var roundTrips: Double?
        if counted {
            try await Task.sleep(for: Self.metricsLag)
            roundTrips = Double(try await fleet.roundTrips() - roundTripsBefore) / Double(count)
        }
        return (run, roundTrips, cpu.map { $0 / Double(count) }, workerCPU, brokerCPU)
    }

    /// The CPU `pids` used since `before`, in µs per command of a round; nil when none of them was read before.
    private func cpuPerCommand(of pids: [Int32], since before: [Int32: UInt64]) -> Double? {
        guard pids.contains(where: { before[$0] != nil }) else { return nil }
        return Double(ThreadGroupCPU.nanoseconds(of: pids, before: before)) / 1_000 / Double(count)
    }

    /// One pgbench round of about as many commands as the workers' rounds, with PostgreSQL's CPU per
    /// transaction when the server is on this host.
    private func pgbenchRound(
        _ pgbench: PgBench, _ command: BenchCommand, round: Int, server: PostgresServerCPU?
    ) async throws
        -> (rate: Double, postgresCPU: Double?)
    {
        let perClient = max(1, count / PgBench.clients)
        try await pgbench.prepare(command, perClient: perClient, round: round)
        let (rate, cpu) = try await Self.measuringCPU(of: server) {
            try await pgbench.run(command, perClient: perClient, round: round)
        }
        return (rate, cpu.map { $0 / Double(perClient * PgBench.clients) })
    }

    /// What `work` returns and, when the server is on this host, the CPU it used meanwhile, µs.
    private static func measuringCPU<Value>(
        of server: PostgresServerCPU?, _ work: () async throws -> Value
    ) async throws -> (Value, Double?) {
        guard let server else { return (try await work(), nil) }
        let (value, nanoseconds) = try await server.measuring(work)
        return (value, Double(nanoseconds) / 1_000)
    }

    private static func describe(_ memory: [ProcessMemory]) -> String {
        memory.map { "VmHWM \($0.peakKiB) kB, VmRSS \($0.currentKiB) kB" }.joined(separator: "; ")
    }

    /// The worker's whole configuration for a scenario, as an operator would give it.
    private func workerSettings(virtualHost: String, databaseURL: String, catalog: String) -> [String: String] {
        var settings = [
            "CHECKOUT_AMQP_URL": amqpURL(virtualHost),
            "CHECKOUT_DATABASE_URL": databaseURL,
            "CHECKOUT_CATALOG_FILE": catalog,
            "CHECKOUT_PAYMENT_PROCESSOR": "sandbox",
            "CHECKOUT_PREFETCH": "\(prefetch)",
            "CHECKOUT_LOG_LEVEL": workerLogLevel,
            "CHECKOUT_LOG_FORMAT": "json",
        ]
        settings["CHECKOUT_CONCURRENCY"] = concurrency.map(String.init)
        settings["CHECKOUT_DATABASE_POOL_SIZE"] = poolSize.map(String.init)
        return settings
    }

    private func endpoint(_ virtualHost: String) -> AMQPEndpoint {
        var endpoint = broker
        endpoint.virtualHost = virtualHost
        return endpoint
    }

    private func amqpURL(_ virtualHost: String) -> String {
        let user = broker.user.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? broker.user
        let password = broker.password.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? broker.password
        let host = broker.host.contains(":") ? "[\(broker.host)]" : broker.host
        return "\(broker.usesTLS ? "amqps" : "amqp")://\(user):\(password)@\(host):\(broker.port)/\(virtualHost)"
    }
}
