import CheckoutOperations
import Foundation
import Glibc
import Logging
import Metrics
import ServiceLifecycle
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(1)))
struct OperationsServerTests {
    @Test func answersLiveWhileRunning() async throws {
        try await withRunningServer(makeSUT()) { port in
            let live = try await HTTPResult.get("/health/live", port: port)
            let head = try await HTTPResult.head("/health/live", port: port)

            #expect(live.status == 200)
            #expect(head.status == 200 && head.body.isEmpty)
        }
    }

    @Test func answersNotLiveWhileItsLivenessCheckFails() async throws {
        let alive = Mutex(true)
        try await withRunningServer(makeSUT(isAlive: { alive.withLock { $0 } })) { port in
            alive.withLock { $0 = false }
            let stuck = try await HTTPResult.get("/health/live", port: port)
            alive.withLock { $0 = true }
            let recovered = try await HTTPResult.get("/health/live", port: port)

            #expect(stuck.status == 503)
            #expect(recovered.status == 200)
        }
    }

    @Test func isReadyWhenEveryCheckPassesAndNamesThemInOrder() async throws {
        try await withRunningServer(makeSUT()) { port in
            let ready = try await HTTPResult.get("/health/ready", port: port)

            #expect(ready.status == 200)
            #expect(ready.contentType == "application/json")
            #expect(ready.body == #"{"status":"ready","checks":{"broker":"up","database":"up","consumers":"up"}}"#)
        }
    }

    @Test func turnsNotReadyWhileACheckFailsAndReadyAgainAfter() async throws {
        let database = Switch(true)
        let sut = makeSUT(checks: [
            ReadinessCheck("broker") { true },
            ReadinessCheck("database") { database.isOn },
        ])

        try await withRunningServer(sut) { port in
            #expect(try await HTTPResult.get("/health/ready", port: port).status == 200)

            database.set(false)
            let down = try await HTTPResult.get("/health/ready", port: port)
            #expect(down.status == 503)
            #expect(down.body == #"{"status":"not-ready","checks":{"broker":"up","database":"down"}}"#)
            // Some load balancers and monitors probe with HEAD: the same status, no body.
            let head = try await HTTPResult.head("/health/ready", port: port)
            #expect(head.status == 503 && head.body.isEmpty)

            database.set(true)
            #expect(try await HTTPResult.get("/health/ready", port: port).status == 200)
        }
    }

    @Test func countsAThrowingCheckAsDown() async throws {
        struct ConnectionRefused: Error {}
        let sut = makeSUT(checks: [ReadinessCheck("database") { throw ConnectionRefused() }])

        try await withRunningServer(sut) { port in
            let ready = try await HTTPResult.get("/health/ready", port: port)

            #expect(ready.status == 503)
            #expect(ready.body == #"{"status":"not-ready","checks":{"database":"down"}}"#)
        }
    }

    @Test func answersNotReadyWithinTheTimeoutWhenACheckHangsIgnoringCancellation() async throws {
        let hungDatabase = Gate()
        defer { hungDatabase.open() }
        let sut = makeSUT(
            checks: [
                ReadinessCheck("broker") { true },
                ReadinessCheck("database") {
                    await hungDatabase.wait(); return true
                },
            ],
            checkTimeout: .milliseconds(200)
        )

        try await withRunningServer(sut) { port in
            let start = ContinuousClock.now
            let ready = try await HTTPResult.get("/health/ready", port: port)

            #expect(ready.status == 503)
            #expect(ready.body == #"{"status":"not-ready","checks":{"broker":"up","database":"timed-out"}}"#)
            #expect(ContinuousClock.now - start < .seconds(5))
        }
    }

    @Test func servesWhatWasRecordedThroughTheFactoryInPrometheusFormat() async throws {
        let metrics = MetricsBootstrap()
        Counter(label: "checkout_commands_received_total", dimensions: [("command", "cart.sync")], factory: metrics.factory)
            .increment(by: 3)
        Timer(label: "checkout_command_duration_seconds", dimensions: [("command", "cart.sync")], factory: metrics.factory)
            .record(duration: .milliseconds(30))

        try await withRunningServer(makeSUT(metrics: metrics)) { port in
            let scrape = try await HTTPResult.get("/metrics", port: port)

            #expect(scrape.status == 200)
            #expect(scrape.contentType?.hasPrefix("text/plain; version=0.0.4") == true)
            #expect(scrape.body.contains(#"checkout_commands_received_total{command="cart.sync"} 3"#))
            #expect(scrape.body.contains(#"checkout_command_duration_seconds_bucket{command="cart.sync",le="0.05"} 1"#))
            #expect(scrape.body.contains(#"checkout_command_duration_seconds_count{command="cart.sync"} 1"#))
        }
    }

    @Test func logsThePortItBoundSoThatPortZeroCanBeFound() async throws {
        let lines = LineCollector()
        let sut = makeSUT(logger: Logger(label: "checkout-worker") { JSONLogHandler(label: $0, sink: lines.sink) })

        try await withRunningServer(sut) { port in
            let served = try lines.objects().filter { $0["http.port"] != nil }
            #expect(served.count == 1)
            #expect(served.first?["http.port"] as? Int == port)
        }
    }

    @Test func saysItIsNotListeningOnceStopped() async throws {
        let sut = makeSUT()

        try await withRunningServer(sut) { _ in }

        let error = await #expect(throws: OperationsServerError.self) { try await sut.listeningPort }
        #expect(error?.code == .notListening)
    }

    @Test func closesAConnectionThatSendsNothingForTheIdleTimeout() async throws {
        try await withRunningServer(makeSUT(idleTimeout: .milliseconds(500))) { port in
            let closedByServer = try await Task.detached { try Self.connectAndWaitForClose(port: port, giveUpAfter: 20) }.value

            #expect(closedByServer, "the server kept a silent connection open for 20 s")
        }
    }

    /// Connects, sends nothing, and reads until the server closes (true) or `seconds` pass (false).
    private static func connectAndWaitForClose(port: Int, giveUpAfter seconds: Int) throws -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        defer { close(socket) }
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw POSIXError(.init(rawValue: errno) ?? .ECONNREFUSED) }
        var byte: UInt8 = 0
        return recv(socket, &byte, 1, 0) == 0
    }

    private func makeSUT(
        checks: [ReadinessCheck] = [
            ReadinessCheck("broker") { true },
            ReadinessCheck("database") { true },
            ReadinessCheck("consumers") { true },
        ],
        checkTimeout: Duration = .seconds(2),
        idleTimeout: Duration = .seconds(75),
        isAlive: @escaping @Sendable () -> Bool = { true },
        metrics: MetricsBootstrap = MetricsBootstrap(),
        logger: Logger = Logger(label: "operations-tests") { _ in SwiftLogNoOpLogHandler() }
    ) -> OperationsServer {
        OperationsServer(
            host: "127.0.0.1",
            port: 0,
            readinessChecks: checks,
            isAlive: isAlive,
            checkTimeout: checkTimeout,
            idleTimeout: idleTimeout,
            registry: metrics.registry,
            logger: logger
        )
    }

    /// Runs the server in a service group on a free port, calls `body` with the port, then shuts
    /// the group down gracefully and waits for the server to stop.
    private func withRunningServer(_ server: OperationsServer, _ body: (Int) async throws -> Void) async throws {
        let group = ServiceGroup(services: [server], logger: Logger(label: "operations-tests") { _ in SwiftLogNoOpLogHandler() })
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            do {
                try await body(try await server.listeningPort)
            } catch {
                await group.triggerGracefulShutdown()
                throw error
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }
}
