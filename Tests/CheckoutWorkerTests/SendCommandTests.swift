import Foundation
import Testing

/// `checkout-worker send` as a person runs it: the body from a file or standard input,
/// `--timeout` written as every other duration, and only the broker settings read.
@Suite struct SendCommandTests {
    @Test func sendsABodyReadFromAFileAndPrintsItsResult() async throws {
        try await withVirtualHostWorld { world, _ in
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("send-\(UUID().uuidString).json")
            try Data(Bodies.syncCart(cart: "cart-file").utf8).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }

            let run = try await ExecutableRun.run(
                ExecutableRun.checkoutWorker,
                [
                    "send", "sync-cart", "--json", "@\(file.path)", "--wait", "--timeout", "20s",
                ], environment: ["CHECKOUT_AMQP_URL": world.brokerURL, "CHECKOUT_LOG_LEVEL": "warning"])

            #expect(await run.status == 0, "\(run.standardError)")
            #expect(run.standardOutput.contains("cart.synced"), "\(run.standardOutput)")
            #expect(run.standardOutput.contains("cart-file"))
        }
    }

    @Test func sendsWhateverTheSettingsOnlyTheWorkerUsesSay() async throws {
        try await withVirtualHostWorld { world, _ in
            let run = try await ExecutableRun.run(
                ExecutableRun.checkoutWorker,
                [
                    "send", "sync-cart", "--json", Bodies.syncCart(cart: "cart-env"), "--wait", "--timeout", "20s",
                ],
                environment: [
                    "CHECKOUT_AMQP_URL": world.brokerURL, "CHECKOUT_PAYMENT_PROCESSOR": "stripe", "CHECKOUT_STRIPE_TIMEOUT": "soon",
                    "CHECKOUT_DATABASE_URL": "mysql://db", "CHECKOUT_PREFETCH": "lots", "CHECKOUT_LOG_FORMAT": "xml",
                ])

            #expect(await run.status == 0, "\(run.standardError)")
            #expect(run.standardOutput.contains("cart.synced"), "\(run.standardOutput)")
        }
    }

    /// The worker and `send` under names of an operator's choosing, as CONTRACT.md allows for every name.
    @Test func sendsToAWorkerRunningUnderOtherNames() async throws {
        try await withProcessWorld("names") { world in
            let names = [
                "CHECKOUT_COMMANDS_EXCHANGE": "shop.commands", "CHECKOUT_EVENTS_EXCHANGE": "shop.events",
                "CHECKOUT_DEAD_LETTER": "shop.dead",
                "CHECKOUT_SYNC_CART_QUEUE": "shop.carts", "CHECKOUT_PLACE_ORDER_QUEUE": "shop.orders",
                "CHECKOUT_RETRY_QUEUE_PREFIX": "shop.later",
            ]
            try await world.importCatalog(#"[{"sku":"SKU-RED-M","name":"Red","unitPrice":2999,"currency":"EUR","stock":5,"active":true}]"#)
            let worker = try await world.startWorker(names)

            let run = try await ExecutableRun.run(
                ExecutableRun.checkoutWorker,
                ["send", "sync-cart", "--json", Bodies.syncCart(cart: "cart-names"), "--wait", "--timeout", "20s"],
                environment: names.merging(["CHECKOUT_AMQP_URL": world.vhost.url]) { $1 })

            #expect(await run.status == 0, "\(run.standardError)")
            #expect(run.standardOutput.contains("cart.synced"), "\(run.standardOutput)")
            #expect(world.events.all.isEmpty, "an event went to the contract's default events exchange")
            worker.terminate()
            #expect(try await worker.waitForExit(timeout: .seconds(20)) == 0)
        }
    }

    @Test func refusesABodyLargerThanTheWorkerTakesBeforeConnecting() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("send-large-\(UUID().uuidString).json")
        try Data(repeating: UInt8(ascii: " "), count: 256 * 1024 + 1).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        let run = try await ExecutableRun.run(
            ExecutableRun.checkoutWorker, ["send", "sync-cart", "--json", "@\(file.path)"],
            environment: ["CHECKOUT_AMQP_URL": "amqp://guest:guest@127.0.0.1:1/%2F"])

        #expect(await run.status == 1)
        #expect(run.standardError.contains("the body has 262145 bytes; the worker takes at most 262144"), "\(run.standardError)")
    }

    @Test func refusesAFileThatIsNotThere() async throws {
        let missing = try await ExecutableRun.run(
            ExecutableRun.checkoutWorker, ["send", "sync-cart", "--json", "@/nonexistent/body.json"],
            environment: ["CHECKOUT_AMQP_URL": "amqp://guest:guest@127.0.0.1:1/%2F"])

        #expect(await missing.status != 0)
        #expect(missing.standardError.contains("/nonexistent/body.json"), "\(missing.standardError)")
    }

    /// The longest message_id the worker takes is sent and answered; a longer one, which a reply queue
    /// named after it could not even fit, is refused before anything is published.
    @Test func sendsTheLongestMessageIDTheWorkerTakesAndRefusesALongerOne() async throws {
        try await withVirtualHostWorld { world, _ in
            let longest = String(repeating: "m", count: 200)
            let run = try await ExecutableRun.run(
                ExecutableRun.checkoutWorker,
                [
                    "send", "sync-cart", "--json", Bodies.syncCart(cart: "cart-long-id"), "--message-id", longest, "--wait", "--timeout",
                    "20s",
                ],
                environment: ["CHECKOUT_AMQP_URL": world.brokerURL, "CHECKOUT_LOG_LEVEL": "warning"])
            #expect(await run.status == 0, "\(run.standardError)")
            #expect(run.standardOutput.contains("cart.synced (message_id \(longest)/cart.synced)"), "\(run.standardOutput)")

            let longer = try await ExecutableRun.run(
                ExecutableRun.checkoutWorker, ["send", "sync-cart", "--json", "{}", "--message-id", longest + "m"],
                environment: ["CHECKOUT_AMQP_URL": world.brokerURL])
            #expect(await longer.status == 64)
            #expect(
                longer.standardError.contains("--message-id must be 1–200 printable ASCII characters (has 201)"), "\(longer.standardError)")
        }
    }

    /// As every duration setting: a whole number with its unit, more than zero.
    @Test(arguments: ["soon", "20", "0s", "1.5s"])
    func refusesATimeoutThatIsNotADurationAsSettingsWriteThem(timeout: String) async throws {
        let run = try await ExecutableRun.run(ExecutableRun.checkoutWorker, ["send", "sync-cart", "--json", "{}", "--timeout", timeout])

        #expect(await run.status != 0)
        #expect(run.standardError.contains("'\(timeout)' is not a duration"), "\(run.standardError)")
    }
}
