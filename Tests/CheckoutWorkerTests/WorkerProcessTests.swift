import CheckoutMessaging
import CheckoutTestSupport
import Foundation
import RabbitMQ
import Testing

@testable import checkout_worker

/// The real executable as an operator runs it: started as a process, probed over HTTP, stopped with
/// signals, given bad settings. Each test has a vhost and a database of its own and signals only
/// its own workers, so the suite runs beside the others.
@Suite(.timeLimit(.minutes(2))) struct WorkerProcessTests {
    @Test func turnsReadyAndShowsAHandledCommandInItsMetrics() async throws {
        try await withProcessWorld("ready") { world in
            try await world.importCatalog(OrderLoad(count: 4).catalogFile)
            let worker = try await world.startWorker()
            #expect(try await worker.get("/health/live").status == 200)

            let ready = try await poll(worker, "/health/ready") { $0.status == 200 }
            #expect(ready.body == #"{"status":"ready","checks":{"broker":"up","database":"up","consumers":"up"}}"#)

            try await world.send(.syncCart, [("sync-1", Bodies.syncCart(cart: "cart-1", customer: "cust-1", items: [("SKU-A", 1)]))])
            let synced = try await world.events.wait { $0.properties.correlationID == "sync-1" }
            #expect(synced.first?.properties.type == "cart.synced")
            let metrics = try await poll(worker, "/metrics") {
                $0.body.contains(#"checkout_commands_completed_total{command="cart.sync",result="acked"} 1"#)
            }.body
            #expect(metrics.contains(#"checkout_commands_received_total{command="cart.sync"} 1"#))
            #expect(metrics.contains(#"checkout_publish_confirm_seconds_count{event="cart.synced"} 1"#))
            #expect(metrics.contains("checkout_broker_reconnects_total 0"))

            worker.terminate()
            #expect(try await worker.waitForExit(timeout: .seconds(15)) == 0, "\(worker.standardError)")
        }
    }

    /// Deleting the test's vhost closes the worker's connection and refuses its reconnects: the
    /// broker is down as far as this worker can tell, and nobody else's.
    @Test func isNotReadyWhileTheBrokerIsGoneAndCountsTheReconnect() async throws {
        try await withProcessWorld("reconnect") { world in
            let worker = try await world.startWorker()
            try await poll(worker, "/health/ready") { $0.status == 200 }

            try await world.vhost.delete()
            let down = try await poll(worker, "/health/ready") { $0.status == 503 }
            #expect(down.body.contains(#""broker":"down""#))

            try await world.vhost.add()
            try await poll(worker, "/health/ready", timeout: .seconds(40)) { $0.status == 200 }
            try await poll(worker, "/metrics") { (Self.value(of: "checkout_broker_reconnects_total", in: $0.body) ?? 0) >= 1 }

            // The topology was declared anew and the consumers resumed: commands are handled again.
            // The test's own client lost the vhost too; it publishes and watches once it recovered.
            let clientDeadline = ContinuousClock.now + .seconds(30)
            while !world.client.isConnected, ContinuousClock.now < clientDeadline { try await Task.sleep(for: .milliseconds(50)) }
            try #require(world.client.isConnected, "the test's client did not reconnect to the re-added vhost")
            try await world.send(.syncCart, [("sync-after", Bodies.syncCart(cart: "cart-after", customer: "cust-1"))])
            try await world.events.wait(timeout: .seconds(20)) { $0.properties.correlationID == "sync-after" }
            worker.terminate()
            #expect(try await worker.waitForExit(timeout: .seconds(15)) == 0, "\(worker.standardError)")
        }
    }

    /// A whole stack started at once: the worker comes up before its broker and its database, waits
    /// for both (alive, not ready), and handles commands once they answer.
    @Test func waitsForABrokerAndADatabaseThatComeUpAfterIt() async throws {
        try await withServersBehindProxies("late-servers") { world, broker, database, proxied in
            try await world.importCatalog(OrderLoad(count: 4).catalogFile)
            broker.cut()
            database.cut()

            let worker = try await world.startWorker(proxied)
            try await worker.waitForLogLine("retrying the broker connection")
            try await worker.waitForLogLine("the database is not reachable yet; trying again")
            #expect(try await worker.get("/health/live").status == 200)
            let waiting = try await worker.get("/health/ready")
            #expect(waiting.status == 503)
            #expect(waiting.body.contains(#""consumers":"down""#))

            broker.restore()
            database.restore()
            try await poll(worker, "/health/ready", timeout: .seconds(60)) { $0.status == 200 }
            try await world.send(.syncCart, [("sync-late", Bodies.syncCart(cart: "cart-1", customer: "cust-1", items: [("SKU-A", 1)]))])
            let synced = try await world.events.wait(timeout: .seconds(20)) { $0.properties.correlationID == "sync-late" }
            #expect(synced.first?.properties.type == "cart.synced")

            worker.terminate()
            #expect(try await worker.waitForExit(timeout: .seconds(15)) == 0, "\(worker.standardError)")
        }
    }

    /// SIGTERM while start-up waits, here in the middle of a call to a database that does not answer:
    /// the worker stops at once and exits 0, rather than at the end of the call or with an error.
    @Test func sigtermWhileWaitingForItsServersExitsZeroAtOnce() async throws {
        try await withServersBehindProxies("sigterm-waiting") { world, broker, database, proxied in
            broker.cut()
            database.cut()

            let worker = try await world.startWorker(proxied)
            try await worker.waitForLogLine("the database is not reachable yet; trying again")
            // The next attempt has started, and waits for an answer up to the 10 s call limit.
            try await Task.sleep(for: .seconds(2))
            worker.terminate()
            let stoppedAt = ContinuousClock.now
            #expect(try await worker.waitForExit(timeout: .seconds(15)) == 0, "\(worker.standardError)")
            #expect(ContinuousClock.now - stoppedAt < .seconds(4), "start-up went on after SIGTERM")
            #expect(worker.logLines.contains { $0["message"] as? String == "stopped before handling any command" })
        }
    }

    /// A port the operations server cannot bind (another process holds it) while the broker is not
    /// reachable yet: start-up stops with exit 1 and a line naming the port, rather than crash with no
    /// reason when the wait for the broker does not end at cancellation.
    @Test func anHTTPPortInUseStopsStartUpSayingWhyWhileTheBrokerIsAway() async throws {
        try await withServersBehindProxies("port-in-use") { world, broker, database, proxied in
            broker.cut()
            var settings = proxied
            settings["CHECKOUT_HTTP_PORT"] = "\(database.port)"

            let worker = try WorkerProcess(["run"], environment: world.environment(settings))

            #expect(try await worker.waitForExit(timeout: .seconds(30)) == 1, "\(worker.standardError)")
            let fatal = try #require(worker.logLines.first { $0["level"] as? String == "critical" }, "\(worker.standardError)")
            #expect(fatal["message"] as? String == "stopped on an error", "\(fatal)")
            #expect("\(fatal)".contains("\(database.port)"), "\(fatal)")
        }
    }

    /// SIGTERM while the broker nodes accept the connection and never answer: librabbitmq tries each in
    /// turn, 10 s in its handshake with each, and the connection sees the request to close only after the
    /// round. The worker still ends by the grace period and 5 s, with exit 1 and a line saying why.
    @Test func aWaitNothingInterruptsEndsAtTheShutdownDeadlineSayingWhy() async throws {
        try await withProcessWorld("silent-broker") { world in
            let silent = try await SilentServer.start()
            do {
                // Three nodes: a round of 30 s, far past the deadline whatever the machine's load.
                let node = "amqp://guest:guest@127.0.0.1:\(silent.port)/"
                let worker = try WorkerProcess(
                    ["run"],
                    environment: world.environment([
                        "CHECKOUT_AMQP_URL": [node, node, node].joined(separator: ","), "CHECKOUT_SHUTDOWN_GRACE_PERIOD": "1s",
                    ]))
                try await worker.waitForLogLine("serving /health/live, /health/ready and /metrics")
                try await Task.sleep(for: .seconds(1))
                worker.terminate()
                let stoppedAt = ContinuousClock.now

                #expect(try await worker.waitForExit(timeout: .seconds(30)) == 1, "\(worker.standardError)")
                #expect(ContinuousClock.now - stoppedAt < .seconds(10), "stopped long after the deadline")
                let line = worker.logLines.first {
                    ($0["message"] as? String)?.hasPrefix("did not stop within 6s of being told to") == true
                }
                #expect(line?["level"] as? String == "error", "\(worker.standardError)")
            } catch {
                try? await silent.shutdown()
                throw error
            }
            try await silent.shutdown()
        }
    }

    /// A rolling deploy: SIGTERM lands while hundreds of orders are queued; the worker finishes what
    /// it holds, leaves the rest queued, exits 0, and its successor places the rest, each once.
    @Test func sigtermInTheMiddleOfALoadExitsZeroAndARestartFinishesTheRest() async throws {
        try await withProcessWorld("sigterm") { world in
            let load = OrderLoad(count: 300)
            let first = try await load.startWorkerMidLoad(in: world)
            first.terminate()
            let stoppedAt = ContinuousClock.now
            #expect(try await first.waitForExit(timeout: .seconds(15)) == 0, "\(first.standardError)")
            #expect(ContinuousClock.now - stoppedAt < .seconds(10), "took longer than CHECKOUT_SHUTDOWN_GRACE_PERIOD")
            #expect(first.logLines.contains { $0["message"] as? String == "stopped" })

            let stopped = try await world.database.snapshot()
            load.expectConsistent(stopped)
            #expect(stopped.unfinishedClaims == 0, "a graceful stop finishes every command it started")
            try #require((stopped.handledCommands["place-order"] ?? 0) < load.count, "the load was over before SIGTERM landed")

            try await load.finishWithASecondWorker(in: world)
        }
    }

    /// A log collector that died leaves standard error a pipe nobody reads: writing to it must cost
    /// the lines (counted as dropped), never the process, which SIGPIPE would kill.
    @Test func keepsHandlingCommandsWhenTheReaderOfItsLogsIsGone() async throws {
        try await withProcessWorld("stderr-gone") { world in
            try await world.importCatalog(OrderLoad(count: 4).catalogFile)
            let worker = try WorkerProcess(["run"], environment: world.environment(), standardErrorReaderGone: true)
            let exited = try? await worker.waitForExit(timeout: .seconds(2))
            try #require(exited == nil, "the worker exited with \(exited ?? 0) while writing its first log lines (141: SIGPIPE)")

            try await world.send(.syncCart, [("sync-1", Bodies.syncCart(cart: "cart-1", customer: "cust-1", items: [("SKU-A", 1)]))])
            let synced = try await world.events.wait(timeout: .seconds(30)) { $0.properties.correlationID == "sync-1" }
            #expect(synced.first?.properties.type == "cart.synced")

            worker.terminate()
            #expect(try await worker.waitForExit(timeout: .seconds(15)) == 0)
        }
    }

    /// The fatal line says what the database said, not only which step failed.
    @Test func aDatabaseThatCannotBeOpenedStopsStartUpSayingWhy() async throws {
        try await withProcessWorld("unopenable") { world in
            let worker = try WorkerProcess(
                ["run"], environment: world.environment(["CHECKOUT_DATABASE_URL": "sqlite:///nonexistent-directory-\(UUID())/x.sqlite"]))

            #expect(try await worker.waitForExit(timeout: .seconds(30)) == 1)
            let fatal = try #require(worker.logLines.first { $0["level"] as? String == "critical" }, "\(worker.standardError)")
            #expect((fatal["error.detail"] as? String)?.contains("unable to open database file") == true, "\(fatal)")
        }
    }

    @Test func printsItsVersion() async throws {
        let worker = try WorkerProcess(["--version"], environment: [:])

        #expect(try await worker.waitForExit(timeout: .seconds(20)) == 0)
        #expect(worker.standardOutput == CheckoutWorkerVersion.current + "\n")
    }

    @Test(arguments: [
        ("CHECKOUT_PREFETCH", "abc", "checkout-worker: CHECKOUT_PREFETCH: 'abc' is not valid; expected a whole number from 1 to 65535"),
        ("CHECKOUT_QUEUE_TYPE", "x", "checkout-worker: CHECKOUT_QUEUE_TYPE: 'x' is not valid; expected classic or quorum"),
        (
            "CHECKOUT_DEAD_LETTER", "checkout.sync-cart",
            "checkout-worker: CHECKOUT_DEAD_LETTER: 'checkout.sync-cart' is not valid; expected a name of 1 to 255 bytes, not starting with amq., that no other exchange or queue of the worker has"
        ),
        (
            "CHECKOUT_EVENTS_EXCHANGE", "amq.topic",
            "checkout-worker: CHECKOUT_EVENTS_EXCHANGE: 'amq.topic' is not valid; expected a name of 1 to 255 bytes, not starting with amq., that no other exchange or queue of the worker has"
        ),
        (
            "CHECKOUT_CLAIM_LEASE", "500ms",
            "checkout-worker: CHECKOUT_CLAIM_LEASE: '500ms' is not valid; expected a duration from 1s to 24h, such as 2m"
        ),
    ])
    func aBadSettingStopsStartUpWithOneLineNamingIt(variable: String, value: String, line: String) async throws {
        let worker = try WorkerProcess(["run"], environment: [variable: value])

        #expect(try await worker.waitForExit(timeout: .seconds(20)) == 78)
        #expect(worker.standardError == line + "\n")
        #expect(worker.standardOutput.isEmpty)
    }

    /// Runs `body` in a world on PostgreSQL whose broker and database its workers reach through proxies
    /// the test can cut (the settings that point a worker at them are `proxied`); shuts them down after.
    private func withServersBehindProxies(
        _ name: String,
        _ body: (ProcessWorld, _ broker: TCPProxy, _ database: TCPProxy, _ proxied: [String: String]) async throws -> Void
    ) async throws {
        try await withProcessWorld(name, database: .postgres) { world in
            let (broker, brokerURL) = try await TCPProxy.start(inFrontOf: world.vhost.url)
            let database: (proxy: TCPProxy, url: String)
            do {
                database = try await TCPProxy.start(inFrontOf: world.database.url)
            } catch {
                try? await broker.shutdown()
                throw error
            }
            do {
                try await body(world, broker, database.proxy, ["CHECKOUT_AMQP_URL": brokerURL, "CHECKOUT_DATABASE_URL": database.url])
            } catch {
                try? await broker.shutdown()
                try? await database.proxy.shutdown()
                throw error
            }
            try await broker.shutdown()
            try await database.proxy.shutdown()
        }
    }

    /// The value of an unlabelled series in Prometheus text.
    private static func value(of series: String, in metrics: String) -> Double? {
        metrics.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap { $0.split(separator: " ").last }.flatMap { Double($0) }
    }

    /// Asks `path` until `condition` holds, for at most `timeout`; returns that answer.
    @discardableResult
    private func poll(
        _ worker: WorkerProcess,
        _ path: String,
        timeout: Duration = .seconds(20),
        sourceLocation: SourceLocation = #_sourceLocation,
        until condition: ((status: Int, body: String)) -> Bool
    ) async throws -> (status: Int, body: String) {
        let deadline = ContinuousClock.now + timeout
        while true {
            let answer = try await worker.get(path)
            if condition(answer) { return answer }
            guard ContinuousClock.now < deadline else {
                Issue.record(
                    "GET \(path) still answers \(answer.status) after \(timeout): \(answer.body.prefix(2000))",
                    sourceLocation: sourceLocation)
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }
}
