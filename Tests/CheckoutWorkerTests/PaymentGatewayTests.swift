import CheckoutMessaging
import CheckoutPaymentsTesting
import Foundation
import RabbitMQ
import Testing

/// PlaceOrder through the worker with the Stripe adapter, against the fake Stripe server: what a
/// customer is charged when the gateway misbehaves.
@Suite struct PaymentGatewayTests {
    @Test func aGatewayThatTimesOutAfterChargingIsRetriedWithTheSameKeyAndChargesOnce() async throws {
        try await withStripe(FakeStripeOptions(slowAnswerDelay: .seconds(5))) { stripe in
            try await withWorld(Self.settings(stripe, timeout: "2s")) { world, worker in
                try await world.send(.syncCart, Bodies.syncCart(), messageID: "sync-1")
                try await world.events.wait { $0.properties.correlationID == "sync-1" }
                try await world.send(.placeOrder, Bodies.placeOrder(token: FakeStripeToken.timeoutAfterCharge), messageID: "order-slow")

                let placed = try #require(
                    try await world.events.wait(timeout: .seconds(20)) { $0.properties.correlationID == "order-slow" }.first)
                #expect(placed.properties.type == "order.placed")
                let charges = stripe.ledger.charges(forCommand: "order-slow")
                #expect(charges.count == 1)
                #expect(charges.first?.amount == 5998)
                #expect(charges.first?.isRefunded == false)
                #expect(Bodies.json(placed)["paymentId"] as? String == charges.first?.paymentIntentID)
                // The first answer was lost to the timeout: the order was placed by a retry.
                #expect(worker.total(of: "checkout_command_retries_total") >= 1)
                #expect(world.deadLetters.all.isEmpty)
                #expect(world.events.about("order-slow").count == 1)
            }
        }
    }

    @Test func aGatewayFailingEveryTimeEndsInPaymentUnavailableWithNothingCharged() async throws {
        try await withStripe { stripe in
            try await withWorld(Self.settings(stripe)) { world in
                try await world.send(.syncCart, Bodies.syncCart(), messageID: "sync-1")
                try await world.events.wait { $0.properties.correlationID == "sync-1" }
                try await world.send(.placeOrder, Bodies.placeOrder(token: FakeStripeToken.gateway500), messageID: "order-500")

                let rejected = try #require(try await world.events.wait { $0.properties.correlationID == "order-500" }.first)
                #expect(rejected.properties.type == "order.rejected")
                #expect(Bodies.json(rejected)["reason"] as? String == "payment-unavailable")
                let dead = try #require(try await world.deadLetters.wait().first)
                #expect(dead.properties.headers?["x-error-reason"]?.stringValue == "retries-exhausted")
                #expect(stripe.ledger.charges(forCommand: "order-500").isEmpty)
            }
        }
    }

    @Test func aPaymentMethodStripeRefusesIsAnsweredAtOnceAsPaymentFailedWithoutRetry() async throws {
        try await withStripe { stripe in
            try await withWorld(Self.settings(stripe)) { world, worker in
                try await world.send(.syncCart, Bodies.syncCart(), messageID: "sync-1")
                try await world.events.wait { $0.properties.correlationID == "sync-1" }
                try await world.send(.placeOrder, Bodies.placeOrder(token: "pm_no_such_method"), messageID: "order-refused")

                let rejected = try #require(try await world.events.wait { $0.properties.correlationID == "order-refused" }.first)
                #expect(rejected.properties.type == "order.rejected")
                #expect(Bodies.json(rejected)["reason"] as? String == "payment-failed")
                #expect((Bodies.json(rejected)["message"] as? String)?.contains("No such PaymentMethod") == true)
                #expect(worker.total(of: "checkout_command_retries_total") == 0)
                #expect(world.deadLetters.all.isEmpty)
                #expect(stripe.ledger.charges(forCommand: "order-refused").isEmpty)
            }
        }
    }

    /// A client's `x-retry-count` is not the worker's: without the worker's signature the command gets
    /// every retry, and each retry copy carries a signed count.
    @Test func aRetryCountTheClientSetDoesNotSkipTheRetries() async throws {
        try await withStripe { stripe in
            try await withWorld(Self.settings(stripe)) { world, worker in
                try await world.send(.syncCart, Bodies.syncCart(), messageID: "sync-1")
                try await world.events.wait { $0.properties.correlationID == "sync-1" }
                try await world.send(
                    .placeOrder, Bodies.placeOrder(token: FakeStripeToken.gateway500), messageID: "order-counted",
                    headers: [RetryHeaders.retryCount: .int64(2)])

                let dead = try #require(try await world.deadLetters.wait().first)
                #expect(dead.properties.headers?[RetryHeaders.errorReason]?.stringValue == "retries-exhausted")
                #expect(dead.properties.headers?[RetryHeaders.retryCount]?.intValue == 2)
                #expect(dead.properties.headers?[RetryHeaders.retrySignature]?.stringValue?.count == 64)
                // The first attempt and both retries failed; a believed count of 2 would have allowed one attempt.
                #expect(worker.total(of: "checkout_command_retries_total") == 3)
            }
        }
    }

    /// A key Stripe refuses fails every attempt the same way: not a transient failure, so the order is
    /// given up at once instead of after every retry delay. Its `unavailable` answer owes a refund of
    /// whatever the command's key charged, which the same key cannot ask for: the dead letter says the
    /// answer is still owed, and replaying it once the key is fixed sends it.
    @Test func aPermanentFailureOfAPortIsGivenUpAtOnceWithoutRetries() async throws {
        try await withStripe { stripe in
            var settings = Self.settings(stripe)
            settings["CHECKOUT_STRIPE_API_KEY"] = "sk_test_revoked"
            try await withWorld(settings) { world, worker in
                try await world.send(.syncCart, Bodies.syncCart(), messageID: "sync-1")
                try await world.events.wait { $0.properties.correlationID == "sync-1" }
                try await world.send(.placeOrder, Bodies.placeOrder(token: "pm_card_visa"), messageID: "order-bad-key")

                let dead = try #require(try await world.deadLetters.wait().first)
                #expect(dead.properties.headers?["x-error-reason"]?.stringValue == "failed-permanently")
                let detail = try #require(dead.properties.headers?["x-error-detail"]?.stringValue)
                #expect(detail.contains("Stripe answered 401") && detail.contains("could not be reported"))
                #expect(worker.total(of: "checkout_command_retries_total") == 0)
                #expect(stripe.ledger.charges(forCommand: "order-bad-key").isEmpty)
            }
        }
    }

    @Test func aTokenOfAFormStripeCannotChargeIsAnInvalidRequestAndNeverReachesStripe() async throws {
        try await withStripe { stripe in
            try await withWorld(Self.settings(stripe)) { world in
                try await world.send(.syncCart, Bodies.syncCart(), messageID: "sync-1")
                try await world.events.wait { $0.properties.correlationID == "sync-1" }
                try await world.send(.placeOrder, Bodies.placeOrder(token: "4242424242424242"), messageID: "order-card-number")

                let rejected = try #require(try await world.events.wait { $0.properties.correlationID == "order-card-number" }.first)
                #expect(Bodies.json(rejected)["reason"] as? String == "invalid-request")
                #expect(stripe.ledger.requestCount == 0)
            }
        }
    }

    /// Runs `body` with a fake Stripe server, and shuts it down whatever happens.
    private func withStripe(
        _ options: FakeStripeOptions = FakeStripeOptions(), _ body: (FakeStripeServer) async throws -> Void
    ) async throws {
        let stripe = try await FakeStripeServer.start(options: options)
        do {
            try await body(stripe)
        } catch {
            try? await stripe.shutdown()
            throw error
        }
        try await stripe.shutdown()
    }

    /// The worker's settings for the fake gateway: answers later than 500 ms count as lost.
    /// - Parameter timeout: Ample by default: on a loaded machine an answer later than a tight timeout
    ///   is a timeout, which is retried, and the tests that count no retries would fail.
    /// The fake's search shows a charge at once, so the worker believes an empty search after a second
    /// rather than the minute Stripe may take.
    private static func settings(_ stripe: FakeStripeServer, timeout: String = "10s") -> [String: String] {
        [
            "CHECKOUT_PAYMENT_PROCESSOR": "stripe",
            "CHECKOUT_STRIPE_API_KEY": stripe.apiKey,
            "CHECKOUT_STRIPE_BASE_URL": stripe.baseURL,
            "CHECKOUT_STRIPE_TIMEOUT": timeout,
            "CHECKOUT_STRIPE_SEARCH_LAG": "1s",
        ]
    }
}
