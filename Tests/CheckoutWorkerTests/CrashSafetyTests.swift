import CheckoutMessaging
import CheckoutPaymentsTesting
import CheckoutTestSupport
import Foundation
import RabbitMQ
import Testing

/// A worker process killed with SIGKILL, as a crashed or OOM-killed one dies: what it wrote is whole,
/// and the restarted worker finishes its commands through the broker's redelivery, each once.
/// Each test kills only its own worker, on a vhost and a database of its own.
@Suite(.timeLimit(.minutes(2))) struct CrashSafetyTests {
    @Test(arguments: TestDatabase.Engine.allCases)
    func sigkillWhilePlacingOrdersLeavesNoHalfWrittenOrderAndARestartFinishesTheWork(engine: TestDatabase.Engine) async throws {
        try await withProcessWorld("sigkill-\(engine)", database: engine) { world in
            let load = OrderLoad(count: 300)
            let first = try await load.startWorkerMidLoad(in: world)
            first.kill()
            #expect(try await first.waitForExit(timeout: .seconds(10)) == 137)

            let crashed = try await world.database.snapshot()
            load.expectConsistent(crashed)
            try #require((crashed.handledCommands["place-order"] ?? 0) < load.count, "the load was over before SIGKILL landed")

            try await load.finishWithASecondWorker(in: world)
        }
    }

    /// The contract's failure row "the worker dies mid-command": killed after the payment processor
    /// charged and before the order was stored, the command is redelivered to the next worker, which
    /// finds the charge under the command's idempotency key, stores the order once and answers.
    @Test func aWorkerKilledMidCommandHasItsCommandRedeliveredAndHandledOnce() async throws {
        // The charge is made at once and its answer held back: the worker waits on it when it is killed.
        let stripe = try await FakeStripeServer.start(options: FakeStripeOptions(slowAnswerDelay: .seconds(25)))
        let payments = [
            "CHECKOUT_PAYMENT_PROCESSOR": "stripe", "CHECKOUT_STRIPE_API_KEY": stripe.apiKey, "CHECKOUT_STRIPE_BASE_URL": stripe.baseURL,
        ]
        do {
            try await withProcessWorld("dies-mid-command", database: .postgres) { world in
                let load = OrderLoad(count: 4)
                try await world.importCatalog(load.catalogFile)
                let first = try await world.startWorker(payments)
                try await world.send(.syncCart, [("sync-1", Bodies.syncCart(cart: "cart-1", customer: "cust-1", items: [("SKU-A", 1)]))])
                try await world.events.wait { $0.properties.correlationID == "sync-1" }

                try await world.send(
                    .placeOrder,
                    [
                        (
                            "place-1",
                            Bodies.placeOrder(
                                cart: "cart-1", customer: "cust-1", cartVersion: 1, expectedTotal: 1000,
                                token: FakeStripeToken.timeoutAfterCharge)
                        )
                    ])
                let deadline = ContinuousClock.now + .seconds(20)
                while stripe.ledger.charges(forCommand: "place-1").isEmpty, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(20))
                }
                try #require(stripe.ledger.charges(forCommand: "place-1").count == 1, "the worker never charged: \(first.standardError)")
                first.kill()
                #expect(try await first.waitForExit(timeout: .seconds(10)) == 137)
                let crashed = try await world.database.snapshot()
                #expect(crashed.cartOfOrder.isEmpty && crashed.unfinishedClaims == 1, "killed mid-command: claimed, charged, no order yet")

                // The claim's lease is two minutes: only its dead worker's lapsed liveness lets the successor in sooner.
                let second = try await world.startWorker(payments)
                let restarted = ContinuousClock.now
                let answer = try #require(
                    try await world.events.wait(timeout: .seconds(30)) { $0.properties.correlationID == "place-1" }.first)
                print("takeover: the dead worker's command was answered \(ContinuousClock.now - restarted) after its successor was ready")
                #expect(answer.properties.type == "order.placed", "\(Bodies.json(answer))")
                second.terminate()
                #expect(try await second.waitForExit(timeout: .seconds(15)) == 0, "\(second.standardError)")

                let finished = try await world.database.snapshot()
                #expect(Array(finished.cartOfOrder.values) == ["cart-1"])
                #expect(finished.linesOfOrder.values.sorted() == [1])
                #expect(finished.stock["SKU-A"] == load.catalog[0].stock - 1)
                #expect(finished.handledCommands["place-order"] == 1 && finished.unfinishedClaims == 0)
                let charges = stripe.ledger.charges(forCommand: "place-1")
                #expect(charges.count == 1 && charges.allSatisfy { !$0.isRefunded }, "\(charges)")
                #expect(Set(world.events.about("place-1").compactMap(\.properties.messageID)) == ["place-1/order.placed"])
            }
        } catch {
            try? await stripe.shutdown()
            throw error
        }
        try await stripe.shutdown()
    }
}
