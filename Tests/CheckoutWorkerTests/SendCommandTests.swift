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

    @Test func refusesAFileThatIsNotThere() async throws {
        let missing = try await ExecutableRun.run(
            ExecutableRun.checkoutWorker, ["send", "sync-cart", "--json", "@/nonexistent/body.json"],
            environment: ["CHECKOUT_AMQP_URL": "amqp://guest:guest@127.0.0.1:1/%2F"])

        #expect(await missing.status != 0)
        #expect(missing.standardError.contains("/nonexistent/body.json"), "\(missing.standardError)")
    }

    /// As every duration setting: a whole number with its unit, more than zero.
    @Test(arguments: ["soon", "20", "0s", "1.5s"])
    func refusesATimeoutThatIsNotADurationAsSettingsWriteThem(timeout: String) async throws {
        let run = try await ExecutableRun.run(ExecutableRun.checkoutWorker, ["send", "sync-cart", "--json", "{}", "--timeout", timeout])

        #expect(await run.status != 0)
        #expect(run.standardError.contains("'\(timeout)' is not a duration"), "\(run.standardError)")
    }
}
