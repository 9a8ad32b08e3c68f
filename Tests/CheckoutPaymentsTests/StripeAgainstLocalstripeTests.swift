import CheckoutDomain
import CheckoutPayments
import CheckoutTestSupport
import Testing

/// The Stripe adapter against localstripe, a stateful Stripe fake written by others, so the adapter is
/// checked against more than the assumptions our own fake shares with it.
///
/// localstripe answers some requests otherwise than Stripe documents; the adapter follows Stripe's
/// documentation, and each test notes where localstripe differs. It has no idempotency keys, no search
/// API and no scripted outages, so exactly-once charges, lost answers, 503s and timeouts are tested on
/// `FakeStripeServer` (StripePaymentProcessorTests, PaymentProcessorContractTests).
@Suite struct StripeAgainstLocalstripeTests {
    @Test func chargesStripesTestVisaPaymentMethodWithTheCommandInItsMetadata() async throws {
        try await Localstripe.withProcessor { sut, localstripe in
            let key = try uniqueCommandID()

            let payment = try #require(
                try await sut.charge(eur(5998), with: PaymentToken("pm_card_visa"), idempotencyKey: key).approvedPayment)

            #expect(payment.amount == (eur(5998)))
            let intent = try await localstripe.get("/v1/payment_intents/\(payment.id)")
            #expect(intent["status"] as? String == "succeeded")
            #expect(intent["amount"] as? Int == 5998)
            #expect(intent["currency"] as? String == "eur")
            #expect((intent["metadata"] as? [String: Any])?["command_id"] as? String == key.rawValue)
        }
    }

    /// Stripe types a decline `card_error` with a `decline_code` (`generic_decline` for this card);
    /// localstripe types it `invalid_request_error` with only `code: card_declined`. Both answer HTTP 402,
    /// which is what makes it a decline, answered at once.
    @Test func declinesACardThatFailsWhenChargedWithStripesCode() async throws {
        try await Localstripe.withProcessor { sut, _ in
            let result = try await sut.charge(
                eur(5998), with: PaymentToken("pm_card_chargeCustomerFail"), idempotencyKey: uniqueCommandID())

            #expect(result == .declined(DeclineCode("card_declined")))
        }
    }

    /// Stripe answers 400 `resource_missing`, "No such PaymentMethod"; localstripe 404 "Not Found".
    /// Either is a permanent failure, answered at once as `payment-failed`, not retried.
    @Test func failsForGoodOnAnUnknownPaymentMethodWithTheServersMessage() async throws {
        try await Localstripe.withProcessor { sut, _ in
            let result = try await sut.charge(eur(5998), with: PaymentToken("pm_no_such_method"), idempotencyKey: uniqueCommandID())

            #expect(result.failure?.message == "Not Found")
        }
    }

    /// Stripe documents `card[token]` for making a PaymentMethod of a legacy card token, and the adapter
    /// sends it; localstripe takes only card numbers there and answers 400 "Bad request". So against
    /// localstripe a `tok_` charge shows the other half of the rule: a 400 is a failure answered at once.
    @Test func aCardTokenLocalstripeCannotConvertFailsForGoodInsteadOfBeingRetried() async throws {
        try await Localstripe.withProcessor { sut, _ in
            let result = try await sut.charge(eur(5998), with: PaymentToken("tok_visa"), idempotencyKey: uniqueCommandID())

            #expect(result.failure?.message == "Bad request")
        }
    }

    @Test func refundsAPaymentByItsID() async throws {
        try await Localstripe.withProcessor { sut, localstripe in
            let payment = try #require(
                try await sut.charge(eur(4200), with: PaymentToken("pm_card_visa"), idempotencyKey: uniqueCommandID()).approvedPayment)

            try await sut.refund(payment)

            let refunds = try #require(try await localstripe.get("/v1/refunds?payment_intent=\(payment.id)")["data"] as? [[String: Any]])
            #expect(refunds.count == 1)
            #expect(refunds.first?["amount"] as? Int == 4200)
        }
    }

    /// localstripe has no search API (404), so this charge can only have been found by the recorded id.
    @Test func findsTheChargeOfACommandByTheIdItSawApprovedWithoutSearching() async throws {
        try await Localstripe.withProcessor { sut, localstripe in
            let key = try uniqueCommandID()
            let payment = try #require(
                try await sut.charge(eur(1250), with: PaymentToken("pm_card_visa"), idempotencyKey: key).approvedPayment)

            let found = try #require(try await sut.findCharge(madeWith: key))
            try await sut.refund(found)

            #expect(found == payment)
            let refunds = try #require(try await localstripe.get("/v1/refunds?payment_intent=\(payment.id)")["data"] as? [[String: Any]])
            #expect(refunds.map { $0["amount"] as? Int } == [1250])
        }
    }
}
