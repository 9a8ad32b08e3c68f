import CheckoutDomain
import CheckoutPayments
import CheckoutTestSupport
import Testing

@Suite struct SandboxPaymentProcessorTests {
    @Test func failsAnUnknownTokenForGoodNamingIt() async throws {
        let sut = makeSUT()

        let result = try await sut.charge(eur(100), with: PaymentToken("tok_whatever"), idempotencyKey: uniqueCommandID())

        #expect(
            result
                == .failed(
                    PaymentFailure(
                        message:
                            "No such token: the sandbox processor takes tok_visa, tok_chargeDeclined, tok_chargeDeclinedInsufficientFunds and tok_processingError"
                    )))
        #expect(await sut.charges.isEmpty)
    }

    @Test func theSameKeyWithAnotherTokenFailsForGood() async throws {
        let sut = makeSUT()
        let key = try uniqueCommandID()
        _ = try await sut.charge(eur(100), with: PaymentToken("tok_chargeDeclined"), idempotencyKey: key)

        let result = try await sut.charge(eur(100), with: visa, idempotencyKey: key)

        #expect(result.failure != nil)
        #expect(await sut.charges.isEmpty)
    }

    @Test func takesATokenOfAnyForm() throws {
        try makeSUT().validate(PaymentToken("4242424242424242"))
    }

    @Test func aProcessingErrorIsNotKeptSoEveryRetryFailsAgain() async throws {
        let sut = makeSUT()
        let key = try uniqueCommandID()

        for _ in 0..<3 {
            await #expect(throws: RetryableError.self) {
                try await sut.charge(eur(100), with: PaymentToken("tok_processingError"), idempotencyKey: key)
            }
        }
    }

    @Test func showsChargesAndRefundsInTheOrderTheyWereMade() async throws {
        let sut = makeSUT()
        let first = try uniqueCommandID("first")
        let second = try uniqueCommandID("second")
        let firstPayment = try #require(try await sut.charge(eur(100), with: visa, idempotencyKey: first).approvedPayment)
        let secondPayment = try #require(try await sut.charge(eur(200), with: visa, idempotencyKey: second).approvedPayment)
        _ = try await sut.charge(eur(300), with: PaymentToken("tok_chargeDeclined"), idempotencyKey: uniqueCommandID())

        try await sut.refund(secondPayment)

        #expect(
            await sut.charges == [
                SandboxCharge(idempotencyKey: first, payment: firstPayment),
                SandboxCharge(idempotencyKey: second, payment: secondPayment),
            ])
        #expect(await sut.refunds == [secondPayment])
    }

    @Test func paymentIDsAreDeterministic() async throws {
        let key = try uniqueCommandID()

        let one = try await makeSUT().charge(eur(100), with: visa, idempotencyKey: key)
        let other = try await makeSUT().charge(eur(100), with: visa, idempotencyKey: key)

        #expect(one == other)
    }

    @Test func remembersOnlyItsNewestKeysAndAnswersAForgottenOneAlike() async throws {
        let sut = SandboxPaymentProcessor(remembering: 2)
        let keys = try ["first", "second", "third"].map { try uniqueCommandID($0) }
        var payments: [Payment] = []
        for key in keys {
            payments.append(try #require(try await sut.charge(eur(100), with: visa, idempotencyKey: key).approvedPayment))
        }
        for payment in payments {
            try await sut.refund(payment)
        }

        #expect(await sut.charges.map(\.idempotencyKey) == Array(keys.dropFirst()))
        #expect(await sut.refunds == Array(payments.dropFirst()))
        #expect(try await sut.charge(eur(100), with: visa, idempotencyKey: keys[0]) == .approved(payments[0]))
        #expect(await sut.charges.map(\.idempotencyKey) == [keys[2], keys[0]])
    }

    private func makeSUT() -> SandboxPaymentProcessor {
        SandboxPaymentProcessor()
    }

    /// Worker processes each keep their own sandbox ledger; a successor refunds what a dead one charged.
    @Test func refundsAPaymentAnotherProcessMadeOnce() async throws {
        let sandbox = SandboxPaymentProcessor()
        let made = Payment(id: PaymentID("sandbox_pay_cmd-1"), amount: try Money(minorUnits: 500, currency: CurrencyCode("EUR")))

        try await sandbox.refund(made)
        try await sandbox.refund(made)

        #expect(await sandbox.refunds == [made])
    }
}
