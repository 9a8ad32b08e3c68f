import CheckoutDomain
import CheckoutPayments
import CheckoutPaymentsTesting
import CheckoutTestSupport
import Testing

/// The Stripe adapter against the fake Stripe: the request it sends and how it reads failures.
@Suite struct StripePaymentProcessorTests {
    /// Short enough to keep the suite quick, long enough for the requests after a timeout (a retry, a search
    /// and a refund) to be answered on loopback while the whole suite loads both cores: 500 ms was not.
    /// Long enough for every other request under the full parallel run (a card token takes two), short
    /// of the answer the fake holds back.
    private static let shortReadTimeout = Duration.seconds(5)
    private static let slowAnswerDelay = Duration.seconds(12)
    private static let slowAnswers = FakeStripeOptions(slowAnswerDelay: slowAnswerDelay)

    @Test func sendsTheAmountTheLowercaseCurrencyAndTheCommandIDAsKeyAndMetadata() async throws {
        try await TestStripe.withFakeStripe { sut, stripe in
            let key = try uniqueCommandID()

            let payment = try #require(try await sut.charge(eur(5998), with: visa, idempotencyKey: key).approvedPayment)

            let charge = try #require(stripe.ledger.charges.first)
            #expect(stripe.ledger.charges.count == 1)
            #expect(charge.paymentIntentID == payment.id.rawValue)
            #expect(charge.amount == 5998)
            #expect(charge.currency == "eur")
            #expect(charge.commandID == key.rawValue)
            #expect(charge.idempotencyKey == key.rawValue)
        }
    }

    @Test func refundsWithAKeyOfTheirOwn() async throws {
        try await TestStripe.withFakeStripe { sut, stripe in
            let payment = try #require(try await sut.charge(eur(5998), with: visa, idempotencyKey: uniqueCommandID()).approvedPayment)

            try await sut.refund(payment)

            #expect(stripe.ledger.refunds.map(\.idempotencyKey) == ["refund \(payment.id)"])
            #expect(stripe.ledger.charges.map(\.isRefunded) == [true])
        }
    }

    /// Stripe's keys are one space per account: a command whose id was a refund's key (a client that
    /// read the PaymentIntent id in an event) would have had Stripe refuse that refund for good.
    @Test func noCommandIDCanTakeTheKeyOfARefund() async throws {
        try await TestStripe.withFakeStripe { sut, stripe in
            let payment = try #require(try await sut.charge(eur(5998), with: visa, idempotencyKey: uniqueCommandID()).approvedPayment)
            for key in ["refund-\(payment.id)", "refund_\(payment.id)", "refund:\(payment.id)"] {
                _ = try await sut.charge(eur(100), with: visa, idempotencyKey: CommandID(key))
            }

            try await sut.refund(payment)

            #expect(stripe.ledger.refunds(ofPaymentIntent: payment.id.rawValue).count == 1)
            #expect(throws: ValidationError.self) { try CommandID("refund \(payment.id)") }
        }
    }

    @Test(arguments: [FakeStripeToken.gateway500, FakeStripeToken.gateway429])
    func aFailingGatewayIsRetryableAndChargesNothing(_ token: String) async throws {
        try await TestStripe.withFakeStripe { sut, stripe in
            let error = await #expect(throws: RetryableError.self) {
                try await sut.charge(eur(5998), with: PaymentToken(token), idempotencyKey: uniqueCommandID())
            }

            #expect(error?.code == .paymentProcessorUnavailable)
            #expect(stripe.ledger.charges.isEmpty)
        }
    }

    /// A worker places up to its concurrency of orders at once. Queued behind async-http-client's
    /// default 8 connections, 24 charges answered after a second each took three, and the time queued
    /// counts against the bound of each request: under load the last read as Stripe not answering.
    @Test func manyChargesAtOnceAreNotQueuedBehindAFewConnections() async throws {
        let secondEach = FakeStripeOptions(slowAnswerDelay: .seconds(1))
        try await TestStripe.withFakeStripe(secondEach) { sut, stripe in
            let keys = try (0..<24).map { _ in try uniqueCommandID() }

            try await withThrowingTaskGroup(of: Void.self) { group in
                for key in keys {
                    group.addTask {
                        _ = try await sut.charge(eur(500), with: PaymentToken(FakeStripeToken.timeoutAfterCharge), idempotencyKey: key)
                    }
                }
                try await group.waitForAll()
            }

            #expect(stripe.ledger.charges.count == keys.count)
            #expect(stripe.mostConnectionsAtOnce > 8)
        }
    }

    @Test func aSlowGatewayTimesOutAsRetryableAndChargesNothing() async throws {
        try await TestStripe.withFakeStripe(Self.slowAnswers, readTimeout: Self.shortReadTimeout) { sut, stripe in
            let error = await #expect(throws: RetryableError.self) {
                try await sut.charge(eur(5998), with: PaymentToken(FakeStripeToken.slow), idempotencyKey: uniqueCommandID())
            }

            #expect(error?.code == .paymentProcessorUnavailable)
            // Said by the read timeout, not by an answer: no bound on the elapsed time, which a loaded machine stretches.
            #expect(error?.context.hasSuffix("Stripe did not answer") == true, "\(String(describing: error))")
            #expect(stripe.ledger.charges.isEmpty)
        }
    }

    @Test func anUnreachableGatewayIsRetryable() async throws {
        let closed = try await TestStripe.withServer { server in server }

        try await TestStripe.withProcessor(baseURL: closed.baseURL, apiKey: closed.apiKey) { sut in
            let error = await #expect(throws: RetryableError.self) {
                try await sut.charge(eur(5998), with: visa, idempotencyKey: uniqueCommandID())
            }

            #expect(error?.code == .paymentProcessorUnavailable)
        }
    }

    @Test func aGatewayThatTimesOutAfterChargingIsRetriedWithTheSameKeyAndChargesOnce() async throws {
        try await TestStripe.withFakeStripe(Self.slowAnswers, readTimeout: Self.shortReadTimeout) { sut, stripe in
            let key = try uniqueCommandID()
            let token = PaymentToken(FakeStripeToken.timeoutAfterCharge)
            await #expect(throws: RetryableError.self) {
                try await sut.charge(eur(5998), with: token, idempotencyKey: key)
            }

            let retried = try await sut.charge(eur(5998), with: token, idempotencyKey: key)

            let charges = stripe.ledger.charges(forCommand: key.rawValue)
            #expect(charges.count == 1)
            #expect(retried.approvedPayment?.id.rawValue == charges.first?.paymentIntentID)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func anAnswerTrickledPastTheRequestTimeoutIsRetryable() async throws {
        // A byte every 100 ms keeps a 1 s read timeout from firing; only the bound on the whole answer
        // (connect plus read timeout) ends the wait, long before the last byte.
        try await TestStripe.withFakeStripe(readTimeout: .seconds(1)) { sut, stripe in
            let key = try uniqueCommandID()
            let error = await #expect(throws: RetryableError.self) {
                try await sut.charge(eur(5998), with: PaymentToken(FakeStripeToken.trickledAnswer), idempotencyKey: key)
            }

            #expect(error?.code == .paymentProcessorUnavailable)
            #expect(error?.context.hasSuffix("Stripe did not answer") == true, "\(String(describing: error))")
            #expect(stripe.ledger.charges(forCommand: key.rawValue).count == 1)
        }
    }

    @Test func aChargeWhoseAnswerWasLostIsFoundByItsKey() async throws {
        try await TestStripe.withFakeStripe(Self.slowAnswers, readTimeout: Self.shortReadTimeout) { sut, stripe in
            let key = try uniqueCommandID()
            await #expect(throws: RetryableError.self) {
                try await sut.charge(eur(5998), with: PaymentToken(FakeStripeToken.timeoutAfterCharge), idempotencyKey: key)
            }

            let found = try #require(try await sut.findCharge(madeWith: key))

            #expect(found.amount == (eur(5998)))
            #expect(stripe.ledger.charges(forCommand: key.rawValue).map(\.paymentIntentID) == [found.id.rawValue])
        }
    }

    /// A `message_id` is any printable ASCII: in Stripe's search query a quote in it would end the
    /// string (a refused query, and a charge never refunded), and a backslash escape the next quote
    /// (the search for another command's charge, which was then refunded).
    @Test func theSearchForACommandsChargeQuotesItsKeyAndFindsOnlyThatCommandsCharge() async throws {
        try await TestStripe.withFakeStripe(Self.slowAnswers, readTimeout: Self.shortReadTimeout) { sut, stripe in
            let quoted = try uniqueCommandID("it's")
            let other = try CommandID(quoted.rawValue.replacing("'", with: #"\'"#))
            await #expect(throws: RetryableError.self) {
                try await sut.charge(eur(5998), with: PaymentToken(FakeStripeToken.timeoutAfterCharge), idempotencyKey: quoted)
            }

            #expect(try await sut.findCharge(madeWith: other) == nil)
            let found = try #require(try await sut.findCharge(madeWith: quoted))
            #expect(stripe.ledger.charges(forCommand: quoted.rawValue).map(\.paymentIntentID) == [found.id.rawValue])
        }
    }

    @Test func anUnknownPaymentMethodFailsForGoodWithStripesMessage() async throws {
        try await TestStripe.withFakeStripe { sut, stripe in
            let result = try await sut.charge(eur(5998), with: PaymentToken("pm_nothing_like_it"), idempotencyKey: uniqueCommandID())

            #expect(result.failure?.message == "No such PaymentMethod: 'pm_nothing_like_it' (resource_missing)")
            #expect(stripe.ledger.charges.isEmpty)
        }
    }

    @Test func anUnknownCardTokenFailsForGoodBeforeAnyPaymentIntent() async throws {
        try await TestStripe.withFakeStripe { sut, stripe in
            let result = try await sut.charge(eur(5998), with: PaymentToken("tok_nothing_like_it"), idempotencyKey: uniqueCommandID())

            #expect(result.failure?.message == "No such token: 'tok_nothing_like_it' (resource_missing)")
            #expect(stripe.ledger.requestCount == 1)
            #expect(stripe.ledger.charges.isEmpty)
        }
    }

    @Test func chargesAPaymentMethodIDAsIs() async throws {
        try await TestStripe.withFakeStripe { sut, stripe in
            let payment = try #require(
                try await sut.charge(eur(5998), with: PaymentToken("pm_card_visa"), idempotencyKey: uniqueCommandID()).approvedPayment)

            #expect(stripe.ledger.paymentMethods.isEmpty)
            #expect(stripe.ledger.charges.map(\.paymentMethod) == ["pm_card_visa"])
            #expect(stripe.ledger.charges.map(\.paymentIntentID) == [payment.id.rawValue])
        }
    }

    @Test func makesACardTokenIntoAPaymentMethodOncePerCommandAndChargesIt() async throws {
        try await TestStripe.withFakeStripe { sut, stripe in
            let key = try uniqueCommandID()

            let first = try await sut.charge(eur(5998), with: visa, idempotencyKey: key)
            let again = try await sut.charge(eur(5998), with: visa, idempotencyKey: key)

            let method = try #require(stripe.ledger.paymentMethods.first)
            #expect(stripe.ledger.paymentMethods.count == 1)
            #expect(method.cardToken == "tok_visa")
            #expect(method.idempotencyKey == "payment-method-\(key)")
            #expect(stripe.ledger.charges.map(\.paymentMethod) == [method.id])
            #expect(first.approvedPayment != nil)
            #expect(again == first)
        }
    }

    @Test(arguments: ["4242424242424242", "card_1Nv0", "pm_", "tok_visa&amount=1", "pm_card visa", ""])
    func refusesATokenOfAnotherFormBeforeCallingStripe(_ token: String) async throws {
        try await TestStripe.withFakeStripe { sut, stripe in
            let error = #expect(throws: ValidationError.self) { try sut.validate(PaymentToken(token)) }
            let result = try await sut.charge(eur(5998), with: PaymentToken(token), idempotencyKey: uniqueCommandID())

            #expect(error?.code == .invalidPaymentMethod)
            #expect(result.failure != nil)
            #expect(stripe.ledger.requestCount == 0)
        }
    }

    @Test(arguments: ["pm_card_visa", "pm_1PgFjx2eZvKYlo2C", "tok_visa", "tok_1PgFjx2eZvKYlo2C"])
    func takesPaymentMethodIDsAndCardTokens(_ token: String) async throws {
        try await TestStripe.withProcessor(baseURL: "http://127.0.0.1:9", apiKey: "sk_test_x") { sut in
            try sut.validate(PaymentToken(token))
        }
    }

    @Test func pinsTheAPIVersionOnEveryRequest() async throws {
        try await TestStripe.withFakeStripe { sut, stripe in
            _ = try await sut.charge(eur(5998), with: visa, idempotencyKey: uniqueCommandID())

            #expect(StripePaymentProcessor.apiVersion == "2024-06-20")
            #expect(stripe.ledger.charges.map(\.stripeVersion) == [StripePaymentProcessor.apiVersion])
        }
    }

    @Test func findsTheChargeItSawApprovedWhileSearchCannotSeeItYet() async throws {
        try await TestStripe.withFakeStripe(FakeStripeOptions(searchLag: .seconds(600))) { sut, _ in
            let key = try uniqueCommandID()
            let payment = try #require(try await sut.charge(eur(5998), with: visa, idempotencyKey: key).approvedPayment)

            #expect(try await sut.findCharge(madeWith: key) == payment)
        }
    }

    @Test func aWrongAPIKeyIsRefusedForGoodAndNeverShownInErrorsOrLogs() async throws {
        let secret = "sk_test_wrong_secret_4242"
        let recorder = LogRecorder()
        try await TestStripe.withServer { stripe in
            let logger = RecordingLogHandler.logger(recordingInto: recorder)
            try await TestStripe.withProcessor(baseURL: stripe.baseURL, apiKey: secret, logger: logger) { sut in
                let error = await #expect(throws: PaymentProcessorError.self) {
                    try await sut.charge(eur(5998), with: visa, idempotencyKey: uniqueCommandID())
                }

                #expect(error?.code == .requestRejected)
                let texts = [error.map { "\($0)" }, error.map { String(reflecting: $0) }].compactMap(\.self)
                #expect(texts.count == 2)
                #expect(texts.allSatisfy { !$0.contains(secret) })
                #expect(error.map { String(reflecting: $0) }?.contains("Invalid API Key provided") == true, "the server's own text is kept")
            }
        }
        #expect(!recorder.records.isEmpty)
        #expect(recorder.records.allSatisfy { !$0.text.contains(secret) })
    }

    @Test func theAPIKeyIsNeverLoggedNorShownOnTheWayToSuccessOrFailure() async throws {
        let recorder = LogRecorder()
        try await TestStripe.withServer { stripe in
            let logger = RecordingLogHandler.logger(recordingInto: recorder)
            try await TestStripe.withProcessor(baseURL: stripe.baseURL, apiKey: stripe.apiKey, logger: logger) { sut in
                let key = try uniqueCommandID()
                let payment = try #require(try await sut.charge(eur(5998), with: visa, idempotencyKey: key).approvedPayment)
                _ = try await sut.findCharge(madeWith: key)
                try await sut.refund(payment)
                let error = await #expect(throws: RetryableError.self) {
                    try await sut.charge(eur(5998), with: PaymentToken(FakeStripeToken.gateway500), idempotencyKey: uniqueCommandID())
                }
                #expect(error.map { String(reflecting: $0) }?.contains(stripe.apiKey) == false)
            }
        }
        #expect(recorder.records.count >= 3)
        #expect(recorder.records.allSatisfy { !$0.text.contains("sk_test") })
    }

    @Test func underRandomTransientFailuresRetryingEachCommandWithItsKeyChargesItOnce() async throws {
        let chaos = FakeStripeOptions(transientFailureRate: 0.5, seed: 7)
        try await TestStripe.withFakeStripe(chaos) { sut, stripe in
            let keys = try (0..<20).map { _ in try uniqueCommandID("chaos") }
            var failures = 0

            for key in keys {
                var result: ChargeResult?
                for _ in 0..<50 where result == nil {
                    do {
                        result = try await sut.charge(eur(999), with: visa, idempotencyKey: key)
                    } catch is RetryableError {
                        failures += 1
                    }
                }
                #expect(result?.approvedPayment != nil)
            }

            #expect(failures > 0, "the chaos rate made requests fail")
            for key in keys {
                #expect(stripe.ledger.charges(forCommand: key.rawValue).count == 1)
            }
            #expect(stripe.ledger.charges.count == keys.count)
        }
    }

    @Test func refusesUnusableSettings() {
        #expect(throws: PaymentProcessorError.self) { try StripeConfiguration(apiKey: "") }
        #expect(throws: PaymentProcessorError.self) { try StripeConfiguration(apiKey: "sk_test_x", baseURL: "ftp://api.stripe.com") }
        #expect(throws: PaymentProcessorError.self) { try StripeConfiguration(apiKey: "sk_test_x", readTimeout: .zero) }
        // Past 65535 SwiftNIO traps at the first charge, at every order, in every replica.
        #expect(throws: PaymentProcessorError.self) { try StripeConfiguration(apiKey: "sk_test_x", baseURL: "http://127.0.0.1:65536") }
        // Too long for an Int, URL reads it as no port at all: every charge would go to port 80.
        #expect(throws: PaymentProcessorError.self) {
            try StripeConfiguration(apiKey: "sk_test_x", baseURL: "http://127.0.0.1:99999999999999999999")
        }
        #expect(throws: Never.self) { try StripeConfiguration(apiKey: "sk_test_x", baseURL: "http://127.0.0.1:65535") }
        // Every request adds /v1: Stripe's 404 for /v1/v1/… would reject every order as a failed payment.
        #expect(throws: PaymentProcessorError.self) { try StripeConfiguration(apiKey: "sk_test_x", baseURL: "https://api.stripe.com/v1") }
        #expect(throws: PaymentProcessorError.self) { try StripeConfiguration(apiKey: "sk_test_x", baseURL: "https://api.stripe.com/v1/") }
        #expect(throws: Never.self) { try StripeConfiguration(apiKey: "sk_test_x", baseURL: "https://proxy.example/stripe") }
    }

    @Test func describesItsConfigurationWithoutTheKey() throws {
        let configuration = try StripeConfiguration(apiKey: "sk_live_do_not_print", baseURL: "https://api.stripe.com/")

        #expect(configuration.baseURL == "https://api.stripe.com")
        #expect(!"\(configuration)".contains("sk_live"))
    }
}
