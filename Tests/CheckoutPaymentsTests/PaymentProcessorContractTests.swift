import CheckoutDomain
import CheckoutPayments
import CheckoutTestSupport
import Testing

/// What every payment processor promises the use cases, run against each implementation.
@Suite struct PaymentProcessorContractTests {
    @Test(arguments: PaymentProcessorSubject.allCases)
    func approvesAValidCardWithAPaymentOfTheAmount(_ subject: PaymentProcessorSubject) async throws {
        try await subject.withSUT { sut in
            let key = try uniqueCommandID()

            let result = try await sut.processor.charge(eur(5998), with: visa, idempotencyKey: key)

            let payment = try #require(result.approvedPayment)
            #expect(payment.amount == (eur(5998)))
            #expect(await sut.chargeCount(key) == 1)
        }
    }

    @Test(arguments: PaymentProcessorSubject.allCases)
    func declinesADeclinedCardWithTheProcessorsCodeAndChargesNothing(_ subject: PaymentProcessorSubject) async throws {
        try await subject.withSUT { sut in
            let key = try uniqueCommandID()

            let result = try await sut.processor.charge(eur(5998), with: PaymentToken("tok_chargeDeclined"), idempotencyKey: key)

            #expect(result == .declined(sut.genericDeclineCode))
            #expect(await sut.chargeCount(key) == 0)
        }
    }

    @Test(arguments: PaymentProcessorSubject.allCases)
    func declinesACardWithoutFundsAsInsufficientFunds(_ subject: PaymentProcessorSubject) async throws {
        try await subject.withSUT { sut in
            let key = try uniqueCommandID()

            let result = try await sut.processor.charge(
                eur(5998), with: PaymentToken("tok_chargeDeclinedInsufficientFunds"), idempotencyKey: key)

            #expect(result == .declined(DeclineCode("insufficient_funds")))
            #expect(await sut.chargeCount(key) == 0)
        }
    }

    @Test(arguments: PaymentProcessorSubject.allCases)
    func aRepeatedKeyReturnsTheSamePaymentAndChargesOnce(_ subject: PaymentProcessorSubject) async throws {
        try await subject.withSUT { sut in
            let key = try uniqueCommandID()
            let amount = try eur(1250)
            let processor = sut.processor
            let first = try await processor.charge(amount, with: visa, idempotencyKey: key)

            let repeats = try await withThrowingTaskGroup(of: ChargeResult.self) { group in
                for _ in 0..<8 {
                    group.addTask { try await processor.charge(amount, with: visa, idempotencyKey: key) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }

            #expect(first.approvedPayment != nil)
            #expect(repeats.allSatisfy { $0 == first })
            #expect(await sut.chargeCount(key) == 1)
        }
    }

    @Test(arguments: PaymentProcessorSubject.allCases)
    func manyKeysAtOnceAreChargedOnceEach(_ subject: PaymentProcessorSubject) async throws {
        try await subject.withSUT { sut in
            let keys = try (0..<10).map { _ in try uniqueCommandID() }
            let amount = try eur(500)
            let processor = sut.processor

            try await withThrowingTaskGroup(of: Void.self) { group in
                for key in keys + keys {
                    group.addTask { _ = try await processor.charge(amount, with: visa, idempotencyKey: key) }
                }
                try await group.waitForAll()
            }

            for key in keys {
                #expect(await sut.chargeCount(key) == 1)
            }
        }
    }

    @Test(arguments: PaymentProcessorSubject.allCases)
    func aRepeatedKeyAfterADeclineDeclinesAgain(_ subject: PaymentProcessorSubject) async throws {
        try await subject.withSUT { sut in
            let key = try uniqueCommandID()
            let token = PaymentToken("tok_chargeDeclinedInsufficientFunds")
            let first = try await sut.processor.charge(eur(700), with: token, idempotencyKey: key)

            let again = try await sut.processor.charge(eur(700), with: token, idempotencyKey: key)

            #expect(again == first)
            #expect(await sut.chargeCount(key) == 0)
        }
    }

    @Test(arguments: PaymentProcessorSubject.allCases)
    func theSameKeyForAnotherAmountFailsForGoodAndChargesNothingMore(_ subject: PaymentProcessorSubject) async throws {
        try await subject.withSUT { sut in
            let key = try uniqueCommandID()
            _ = try await sut.processor.charge(eur(1000), with: visa, idempotencyKey: key)

            let result = try await sut.processor.charge(eur(2000), with: visa, idempotencyKey: key)

            #expect(result.failure != nil)
            #expect(await sut.chargeCount(key) == 1)
        }
    }

    @Test(arguments: PaymentProcessorSubject.allCases)
    func aProcessingErrorIsRetryableAndChargesNothing(_ subject: PaymentProcessorSubject) async throws {
        try await subject.withSUT { sut in
            let key = try uniqueCommandID()

            let error = await #expect(throws: RetryableError.self) {
                try await sut.processor.charge(eur(5998), with: PaymentToken("tok_processingError"), idempotencyKey: key)
            }

            #expect(error?.code == .paymentProcessorUnavailable)
            #expect(await sut.chargeCount(key) == 0)
        }
    }

    @Test(arguments: PaymentProcessorSubject.allCases)
    func refundingTwiceGivesTheMoneyBackOnce(_ subject: PaymentProcessorSubject) async throws {
        try await subject.withSUT { sut in
            let payment = try #require(
                try await sut.processor.charge(eur(5998), with: visa, idempotencyKey: uniqueCommandID()).approvedPayment)

            try await sut.processor.refund(payment)
            try await sut.processor.refund(payment)

            #expect(await sut.refundCount(payment.id) == 1)
        }
    }

    /// A gateway with one ledger for every worker refuses a payment it never made. The sandbox keeps a
    /// ledger per process, so it cannot tell one from another worker's: it gives any back (its own test).
    @Test(arguments: [PaymentProcessorSubject.stripeOnFake])
    func refundingAPaymentNeverMadeIsRefusedForGood(_ subject: PaymentProcessorSubject) async throws {
        try await subject.withSUT { sut in
            let stranger = Payment(id: PaymentID("pi_never_made"), amount: eur(100))

            let error = await #expect(throws: PaymentProcessorError.self) {
                try await sut.processor.refund(stranger)
            }

            #expect(error?.code == .requestRejected)
        }
    }

    @Test(arguments: PaymentProcessorSubject.allCases)
    func findChargeFindsWhatTheKeyCharged(_ subject: PaymentProcessorSubject) async throws {
        try await subject.withSUT { sut in
            let key = try uniqueCommandID()
            let payment = try #require(try await sut.processor.charge(eur(4200), with: visa, idempotencyKey: key).approvedPayment)

            let found = try await sut.processor.findCharge(madeWith: key)
            let foundAgain = try await sut.processor.findCharge(madeWith: key)

            #expect(found == payment)
            #expect(foundAgain == payment)
            #expect(await sut.refundCount(payment.id) == 0)
        }
    }

    /// What a rejection after a lost answer does twice (a redelivery of its replay): refunds once.
    @Test(arguments: PaymentProcessorSubject.allCases)
    func aChargeFoundAfterItsRefundIsNotGivenBackTwice(_ subject: PaymentProcessorSubject) async throws {
        try await subject.withSUT { sut in
            let key = try uniqueCommandID()
            let payment = try #require(try await sut.processor.charge(eur(4200), with: visa, idempotencyKey: key).approvedPayment)
            try await sut.processor.refund(payment)

            let found = try #require(try await sut.processor.findCharge(madeWith: key))
            try await sut.processor.refund(found)

            #expect(found == payment)
            #expect(await sut.refundCount(payment.id) == 1)
        }
    }

    @Test(arguments: PaymentProcessorSubject.allCases)
    func findChargeWithoutAChargeFindsNothing(_ subject: PaymentProcessorSubject) async throws {
        try await subject.withSUT { sut in
            let declinedKey = try uniqueCommandID()
            _ = try await sut.processor.charge(eur(4200), with: PaymentToken("tok_chargeDeclined"), idempotencyKey: declinedKey)

            #expect(try await sut.processor.findCharge(madeWith: uniqueCommandID()) == nil)
            #expect(try await sut.processor.findCharge(madeWith: declinedKey) == nil)
        }
    }
}
