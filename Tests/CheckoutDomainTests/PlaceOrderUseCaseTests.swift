import CheckoutDomain
import CheckoutPersistence
import CheckoutTestSupport
import Foundation
import Testing

@Suite struct PlaceOrderUseCaseTests {
    // MARK: Placing an order

    @Test func placesTheOrderChargingTheTotalOnce() async throws {
        let (sut, store, payments, output, clock) = try await makeSUT()

        try await sut.execute(request(commandID: "cmd-1", expectedTotal: 5998, token: "tok_visa"))

        let payment = Payment(id: PaymentID("pay_cmd-1"), amount: eur(5998))
        let order = Order(
            id: OrderID(placedBy: commandID("cmd-1")),
            cartID: cartID(),
            customerID: customerID(),
            lines: [line("SKU-RED-M", 2, at: eur(2999))],
            total: eur(5998),
            payment: payment,
            placedAt: clock.now()
        )
        #expect(await output.messages == [.didPlace(order)])
        #expect(await payments.messages == [.charge(eur(5998), token: "tok_visa", idempotencyKey: commandID("cmd-1"))])
        #expect(try await store.orders(forCart: cartID()) == [order])
        #expect(try await store.stock(of: "SKU-RED-M") == 8)
        #expect(try await store.carts.cart(cartID())?.isCheckedOut == true)
    }

    /// Every call is a write the order waits for: the claim reads the cart and its products and records
    /// the charge's request, and the order carries its payment, so the way that succeeds records no
    /// approval beside it.
    @Test func placesTheOrderInTwoStoreCalls() async throws {
        let interceptor = StoreInterceptor()
        let (sut, store, _, output, clock) = try await makeSUT(interceptor: interceptor)

        try await sut.execute(request(commandID: "cmd-1"))

        #expect(await output.messages.count == 1)
        #expect(interceptor.calls == [.claimCommand, .placeOrder])
        #expect(try await store.charges.charge(of: commandID("cmd-1")) == .requested(at: clock.now()))
    }

    /// The claim records the request only when every rule passes, those on today's products too: a
    /// rejected command asked for no charge, and so a later rejection of it asks the processor nothing.
    @Test(arguments: [PlaceOrderRejectionReason.cartChanged, .priceChanged, .outOfStock])
    func aCommandRejectedBeforePaymentRecordsNoChargeRequest(reason: PlaceOrderRejectionReason) async throws {
        let (sut, store, _, output, _) = try await makeSUT(
            products: [product("SKU-RED-M", price: reason == .priceChanged ? eur(3249) : eur(2999), stock: reason == .outOfStock ? 1 : 10)],
            carts: [cart(version: reason == .cartChanged ? 3 : 1, lines: [line("SKU-RED-M", 2, at: eur(2999))])])

        try await sut.execute(request(commandID: "cmd-1", cartVersion: 1))

        #expect(await rejections(output).map(\.reason) == [reason])
        #expect(try await store.charges.charge(of: commandID("cmd-1")) == nil)
    }

    /// A cart written before the store read products with the claim (a worker of the version before,
    /// during a rolling upgrade) comes without them: they are read from the catalog, and the charge's
    /// request is a write of its own.
    @Test func readsTheProductsFromTheCatalogWhenTheClaimCameWithout() async throws {
        let interceptor = StoreInterceptor()
        let (sut, store, _, output, clock) = try await makeSUT(interceptor: interceptor, productsWithTheClaim: false)

        try await sut.execute(request(commandID: "cmd-1"))

        #expect(interceptor.calls == [.claimCommand, .loadProducts, .recordCharge, .placeOrder])
        #expect(await output.placedOrders.map(\.total) == [eur(5998)])
        #expect(try await store.orders(forCart: cartID()).map(\.placedAt) == [clock.now()])
    }

    // MARK: Rejections before payment

    @Test func rejectsAnUnknownCartAndChargesNothing() async throws {
        let (sut, _, payments, output, _) = try await makeSUT(carts: [])

        try await sut.execute(request())

        #expect(
            await rejections(output) == [
                PlaceOrderRejection(cartID: "cart-42", reason: .cartNotFound, message: "cart cart-42 does not exist")
            ])
        #expect(await payments.messages.isEmpty)
    }

    @Test func rejectsAnotherCustomersCartAsForbiddenAndChargesNothing() async throws {
        let (sut, store, payments, output, _) = try await makeSUT(carts: [cart(owner: "cust-8")])

        try await sut.execute(request(customerID: "cust-7"))

        #expect(await rejections(output).map(\.reason) == [.forbidden])
        #expect(await payments.messages.isEmpty)
        #expect(try await store.orders(forCart: cartID()).isEmpty)
    }

    @Test func rejectsACheckedOutCartAndChargesNothing() async throws {
        let (sut, store, payments, output, _) = try await makeSUT(carts: [cart(isCheckedOut: true)])
        let ordersBefore = try await store.orders(forCart: cartID())

        try await sut.execute(request())

        #expect(await rejections(output).map(\.reason) == [.cartCheckedOut])
        #expect(await payments.charges.isEmpty)
        #expect(try await store.orders(forCart: cartID()) == ordersBefore)
    }

    @Test func rejectsAnEmptyCartAndChargesNothing() async throws {
        let (sut, _, payments, output, _) = try await makeSUT(carts: [cart(lines: [])])

        try await sut.execute(request(expectedTotal: 0))

        #expect(await rejections(output).map(\.reason) == [.cartEmpty])
        #expect(await payments.messages.isEmpty)
    }

    @Test func rejectsACartThatChangedSinceTheClientSawItAndChargesNothing() async throws {
        let (sut, _, payments, output, _) = try await makeSUT(carts: [cart(version: 3)])

        try await sut.execute(request(cartVersion: 2))

        #expect(
            await rejections(output) == [
                PlaceOrderRejection(cartID: "cart-42", reason: .cartChanged, message: "cart cart-42 is at version 3, not 2")
            ])
        #expect(await rejections(output).first?.refundsEarlierCharge == true)
        #expect(await payments.charges.isEmpty)
    }

    @Test func rejectsAChangedPriceWithTheNewTotalAndChargesNothing() async throws {
        let (sut, store, payments, output, _) = try await makeSUT(products: [product("SKU-RED-M", price: eur(3249))])

        try await sut.execute(request(expectedTotal: 5998))

        let rejection = try #require(await rejections(output).first)
        #expect(rejection.reason == .priceChanged)
        #expect(rejection.newTotal == eur(6498))
        #expect(await payments.charges.isEmpty)
        #expect(try await store.orders(forCart: cartID()).isEmpty)
    }

    @Test func rejectsAnExpectedTotalInAnotherCurrencyAsPriceChanged() async throws {
        let (sut, _, payments, output, _) = try await makeSUT()

        try await sut.execute(request(expectedTotal: 5998, currency: "USD"))

        #expect(await rejections(output).map(\.newTotal) == [eur(5998)])
        #expect(await payments.charges.isEmpty)
    }

    @Test func rejectsLinesOutOfStockNamingTheirSKUsAndChargesNothing() async throws {
        let (sut, store, payments, output, _) = try await makeSUT(
            products: [
                product("SKU-RED-M", stock: 1), product("SKU-BLUE-L", stock: 5), product("SKU-OLD", price: eur(100), isActive: false),
            ],
            carts: [cart(lines: [line("SKU-RED-M", 2), line("SKU-BLUE-L", 1), line("SKU-OLD", 1, at: eur(100))])]
        )

        try await sut.execute(request(expectedTotal: 3 * 2999 + 100))

        let rejection = try #require(await rejections(output).first)
        #expect(rejection.reason == .outOfStock)
        #expect(rejection.skus == [sku("SKU-RED-M"), sku("SKU-OLD")])
        #expect(await payments.charges.isEmpty)
        #expect(try await store.stock(of: "SKU-BLUE-L") == 5)
    }

    @Test func rejectsALineWhoseProductLeftTheCatalogAsOutOfStock() async throws {
        let (sut, _, payments, output, _) = try await makeSUT(
            products: [product("SKU-RED-M")],
            carts: [cart(lines: [line("SKU-RED-M", 2), line("SKU-GONE", 1, at: eur(500))])]
        )

        try await sut.execute(request(expectedTotal: 5998 + 500))

        #expect(await rejections(output).map(\.skus) == [[sku("SKU-GONE")]])
        #expect(await payments.charges.isEmpty)
    }

    @Test func rejectsARepricingThatOverflowsAsInvalidRequestAndChargesNothing() async throws {
        let (sut, _, payments, output, _) = try await makeSUT(
            products: [product("SKU-A", price: eur(.max / 2), stock: 99)],
            carts: [cart(lines: [line("SKU-A", 3, at: eur(1))])]
        )

        try await sut.execute(request(expectedTotal: 3))

        let rejection = try #require(await rejections(output).first)
        #expect(rejection.reason == .invalidRequest)
        #expect(rejection.message.contains("money-overflow"))
        #expect(await payments.messages.isEmpty)
    }

    @Test func invalidRequestNamesEveryViolationAndChargesNothing() async throws {
        let interceptor = StoreInterceptor()
        let (sut, _, payments, output, _) = try await makeSUT(interceptor: interceptor)
        let invalid = PlaceOrderRequest(
            commandID: "",
            cartID: String(repeating: "c", count: 65),
            customerID: "cust 7",
            cartVersion: 1,
            expectedTotal: 5998,
            currency: "Eur",
            paymentToken: "tok_visa"
        )

        try await sut.execute(invalid)

        let rejection = try #require(await rejections(output).first)
        #expect(rejection.reason == .invalidRequest)
        for field in ["message_id", "cartId", "customerId", "currency"] {
            #expect(rejection.message.contains("\(field) "), "message does not name \(field): \(rejection.message)")
        }
        #expect(await payments.messages.isEmpty)
        #expect(interceptor.calls.isEmpty)
    }

    @Test func checksTheCartRulesInTheContractsOrder() async throws {
        let emptyCart = cart(owner: "cust-8", version: 3, lines: [])
        let (sut, store, payments, output, _) = try await makeSUT(carts: [emptyCart])

        try await sut.execute(request(commandID: "cmd-1", customerID: "cust-8", cartVersion: 1))
        try await store.checkOut(emptyCart)
        try await sut.execute(request(commandID: "cmd-2", customerID: "cust-7", cartVersion: 1))
        try await sut.execute(request(commandID: "cmd-3", customerID: "cust-8", cartVersion: 1))

        #expect(await rejections(output).map(\.reason) == [.cartEmpty, .forbidden, .cartCheckedOut])
        #expect(await payments.charges.isEmpty)
    }

    @Test func reportsAChangedPriceBeforeMissingStock() async throws {
        let (sut, _, payments, output, _) = try await makeSUT(products: [product("SKU-RED-M", price: eur(3000), stock: 0)])

        try await sut.execute(request(expectedTotal: 5998))

        #expect(await rejections(output).map(\.reason) == [.priceChanged])
        #expect(await payments.charges.isEmpty)
    }

    // MARK: Payment

    @Test func rejectsADeclinedPaymentWithTheProcessorsCode() async throws {
        let (sut, store, payments, output, _) = try await makeSUT(answer: .decline(DeclineCode("insufficient_funds")))

        try await sut.execute(request())

        let rejection = try #require(await rejections(output).first)
        #expect(rejection.reason == .paymentDeclined)
        #expect(rejection.declineCode == DeclineCode("insufficient_funds"))
        #expect(await payments.payments.isEmpty)
        #expect(try await store.orders(forCart: cartID()).isEmpty)
        #expect(try await store.carts.cart(cartID())?.isCheckedOut == false)
    }

    /// The processor's message goes into the event and the stored outcome: a gateway's page of an
    /// answer (a proxy's HTML, up to the megabyte read) is cut, not sent to every consumer and kept.
    @Test func aProcessorsLongRefusalIsCutInThePaymentFailedEvent() async throws {
        let (sut, _, _, output, _) = try await makeSUT(answer: .refuse(String(repeating: "é", count: 100_000)))

        try await sut.execute(request(commandID: "cmd-1"))

        let message = try #require(await rejections(output).first?.message)
        #expect(message.hasPrefix("the payment failed: éé"))
        #expect(message.hasSuffix("é…"))
        #expect(message.count == "the payment failed: ".count + PaymentFailure.maximumMessageLength)
    }

    @Test func answersARefusedPaymentAtOnceAsPaymentFailedWithoutRetryOrCharge() async throws {
        let (sut, store, payments, output, _) = try await makeSUT(answer: .refuse("No such PaymentMethod: 'pm_gone'"))

        try await sut.execute(request(commandID: "cmd-1", token: "pm_gone"))

        #expect(
            await rejections(output) == [
                PlaceOrderRejection(
                    cartID: "cart-42", reason: .paymentFailed, message: "the payment failed: No such PaymentMethod: 'pm_gone'"
                )
            ])
        #expect(await payments.charges.count == 1)
        #expect(await payments.payments.isEmpty)
        #expect(await payments.refunds.isEmpty)
        #expect(try await store.orders(forCart: cartID()).isEmpty)
        #expect(try await store.carts.cart(cartID())?.isCheckedOut == false)
    }

    @Test func aRefusedPaymentRedeliveredIsAnsweredAgainWithoutAskingTheProcessor() async throws {
        let (sut, _, payments, output, _) = try await makeSUT(answer: .refuse("Invalid currency"))
        try await sut.execute(request(commandID: "cmd-1"))

        try await sut.execute(request(commandID: "cmd-1"))

        #expect(await rejections(output).map(\.reason) == [.paymentFailed, .paymentFailed])
        #expect(await payments.charges.count == 1)
        #expect(await payments.refunds.isEmpty)
    }

    @Test func rejectsATokenOfAFormTheProcessorCannotTakeAsInvalidRequestBeforeLookingAtTheCart() async throws {
        let (sut, _, payments, output, _) = try await makeSUT(carts: [], tokensOfInvalidForm: ["4242424242424242"])

        try await sut.execute(request(token: "4242424242424242"))

        let rejection = try #require(await rejections(output).first)
        #expect(rejection.reason == .invalidRequest)
        #expect(rejection.message == "invalid request: payment.token is not a payment method this processor takes")
        #expect(await payments.messages.isEmpty)
    }

    @Test func aRejectionOfFormIsRecordedSoAnotherBodyUnderItsIDIsADuplicateAndChargesNothing() async throws {
        let (sut, store, payments, output, _) = try await makeSUT()
        try await sut.execute(request(commandID: "cmd-1", currency: "eur", digest: "aaa"))

        try await sut.execute(request(commandID: "cmd-1", digest: "bbb"))
        try await sut.execute(request(commandID: "cmd-1", currency: "eur", digest: "aaa"))

        let answers = await rejections(output)
        #expect(answers.map(\.reason) == [.invalidRequest, .duplicateMessageID, .invalidRequest])
        #expect(answers.first == answers.last)
        #expect(await payments.messages.isEmpty)
        #expect(try await store.orders(forCart: cartID()).isEmpty)
    }

    @Test(arguments: [StoreCall.claimCommand, .recordOutcome])
    func aRejectionOfFormIsRetriedWhileTheDatabaseIsDownAndAnsweredOnceGivenUp(failing call: StoreCall) async throws {
        let interceptor = StoreInterceptor()
        let (sut, store, payments, output, clock) = try await makeSUT(interceptor: interceptor)
        interceptor.fail([call])
        let invalid = request(commandID: "cmd-1", currency: "eur")

        await #expect(throws: RetryableError.self) { try await sut.execute(invalid) }
        try await sut.abandon(invalid, after: RetryableError(code: .databaseUnavailable, context: "recording"))

        #expect(await rejections(output).map(\.reason) == [.invalidRequest])
        #expect(await payments.messages.isEmpty)
        #expect(try await anotherWorkerCanClaim("cmd-1", in: store, at: clock.now()))
    }

    @Test func aPaymentProcessorFailureIsRetryableAndLeavesNothingBehind() async throws {
        let (sut, store, payments, output, clock) = try await makeSUT(answer: .fail)

        let error = await #expect(throws: RetryableError.self) { try await sut.execute(request(commandID: "cmd-1")) }

        #expect(error?.code == .paymentProcessorUnavailable)
        #expect(await payments.payments.isEmpty)
        #expect(await output.messages.isEmpty)
        #expect(try await anotherWorkerCanClaim("cmd-1", in: store, at: clock.now()))
    }

    // MARK: A failed store after the charge

    @Test func refundsTheChargeWhenStockRanOutWhilePaying() async throws {
        let interceptor = StoreInterceptor()
        let (sut, store, payments, output, _) = try await makeSUT(interceptor: interceptor)
        interceptor.before(.placeOrder) { _ = try await store.importCatalog([product("SKU-RED-M", stock: 1)]) }

        try await sut.execute(request(commandID: "cmd-1"))

        let payment = Payment(id: PaymentID("pay_cmd-1"), amount: eur(5998))
        let rejection = try #require(await rejections(output).first)
        #expect(rejection.reason == .orderFailed)
        #expect(rejection.refundedPayment == payment)
        #expect(await payments.refunds == [.refund(payment)])
        #expect(await payments.charges.count == 1)
        #expect(try await store.orders(forCart: cartID()).isEmpty)
        #expect(try await store.stock(of: "SKU-RED-M") == 1)
        #expect(try await store.carts.cart(cartID())?.isCheckedOut == false)
    }

    @Test func refundsTheChargeWhenTheCartChangedWhilePaying() async throws {
        let interceptor = StoreInterceptor()
        let (sut, store, payments, output, _) = try await makeSUT(interceptor: interceptor)
        interceptor.before(.placeOrder) { try await store.seed(cart(version: 2)) }

        try await sut.execute(request())

        #expect(await rejections(output).map(\.reason) == [.orderFailed])
        #expect(await payments.refunds.count == 1)
        #expect(try await store.orders(forCart: cartID()).isEmpty)
    }

    @Test func aRefundThatFailedIsMadeWhenTheRedeliveryReplaysOrderFailed() async throws {
        let interceptor = StoreInterceptor()
        let (sut, store, payments, output, _) = try await makeSUT(interceptor: interceptor)
        interceptor.before(.placeOrder) { _ = try await store.importCatalog([product("SKU-RED-M", stock: 0)]) }
        await payments.failRefunds(1)

        let error = await #expect(throws: RetryableError.self) { try await sut.execute(request(commandID: "cmd-1")) }
        #expect(error?.code == .paymentProcessorUnavailable)
        #expect(await output.messages.isEmpty)

        try await sut.execute(request(commandID: "cmd-1"))

        let payment = Payment(id: PaymentID("pay_cmd-1"), amount: eur(5998))
        #expect(await payments.refunds == [.refund(payment), .refund(payment)])
        #expect(await payments.charges.count == 1)
        #expect(await rejections(output).map(\.reason) == [.orderFailed])
    }

    /// The approval could not be recorded either: the retry charges again, and the processor's key makes it the same charge.
    @Test func aDatabaseFailureAfterTheChargeIsRetriedWithTheSameIdempotencyKey() async throws {
        let interceptor = StoreInterceptor()
        let (sut, store, payments, output, clock) = try await makeSUT(interceptor: interceptor)
        interceptor.fail([.placeOrder, .recordCharge])

        let error = await #expect(throws: RetryableError.self) { try await sut.execute(request(commandID: "cmd-1")) }
        #expect(error?.code == .databaseUnavailable)
        #expect(try await anotherWorkerCanClaim("cmd-1", in: store, at: clock.now()))

        interceptor.fail([])
        try await sut.execute(request(commandID: "cmd-1"))

        let charge = PaymentProcessorSpy.Message.charge(eur(5998), token: "tok_visa", idempotencyKey: commandID("cmd-1"))
        #expect(await payments.charges == [charge, charge])
        #expect(await payments.payments.count == 1)
        #expect(await payments.refunds.isEmpty)
        #expect(try await store.orders(forCart: cartID()).count == 1)
        #expect(await output.messages.count == 1)
    }

    /// The processor may have forgotten the key by the retry (Stripe after a day, as for a dead letter
    /// replayed the next day): the approval recorded when the order could not be stored is the order's payment.
    @Test func aRetryPlacesTheOrderWithTheRecordedApprovalWithoutChargingAgain() async throws {
        let interceptor = StoreInterceptor()
        let (sut, store, payments, output, _) = try await makeSUT(interceptor: interceptor)
        interceptor.fail([.placeOrder])
        await #expect(throws: RetryableError.self) { try await sut.execute(request(commandID: "cmd-1")) }
        await payments.forgetIdempotencyKeys()
        interceptor.fail([])

        try await sut.execute(request(commandID: "cmd-1"))

        let payment = Payment(id: PaymentID("pay_cmd-1"), amount: eur(5998))
        #expect(await payments.charges.count == 1)
        #expect(await payments.taken.map(\.payment) == [payment])
        #expect(try await store.orders(forCart: cartID()).map(\.payment) == [payment])
        #expect(await output.messages.count == 1)
    }

    /// A charge whose answer was lost, retried after the processor forgot its key: once the search can
    /// be believed, the charge it finds is the order's payment.
    @Test func aRetryPlacesTheOrderWithTheChargeTheSearchFindsWithoutChargingAgain() async throws {
        let (sut, store, payments, output, clock) = try await makeSUT()
        let earlier = try await payments.charge(eur(5998), with: PaymentToken("tok_visa"), idempotencyKey: commandID("cmd-1"))
        try await store.charges.record(.requested(at: clock.now()), for: commandID("cmd-1"))
        await payments.forgetIdempotencyKeys()
        clock.advance(by: 61)

        try await sut.execute(request(commandID: "cmd-1"))

        let payment = Payment(id: PaymentID("pay_cmd-1"), amount: eur(5998))
        #expect(earlier == .approved(payment))
        #expect(await payments.charges.count == 1)
        #expect(await payments.searches == [.findCharge(idempotencyKey: commandID("cmd-1"))])
        #expect(try await store.orders(forCart: cartID()).map(\.payment) == [payment])
        #expect(await output.messages.count == 1)
    }

    /// Within the search lag the search is not asked: its nil proves nothing, and the key, used that
    /// recently, still stands for any charge made under it. The charge's request is recorded anew
    /// before the call, as the claim, which kept the earlier one, did not.
    @Test func aRetryWithinTheSearchLagChargesWithTheSameKeyWithoutSearching() async throws {
        let (sut, store, payments, output, clock) = try await makeSUT()
        try await store.charges.record(.requested(at: clock.now()), for: commandID("cmd-1"))
        clock.advance(by: 59)

        try await sut.execute(request(commandID: "cmd-1"))

        #expect(await payments.searches.isEmpty)
        #expect(await payments.charges == [.charge(eur(5998), token: "tok_visa", idempotencyKey: commandID("cmd-1"))])
        #expect(try await store.charges.charge(of: commandID("cmd-1")) == .requested(at: clock.now()))
        #expect(try await store.orders(forCart: cartID()).count == 1)
        #expect(await output.messages.count == 1)
    }

    /// A processor whose search is refused for good leaves the key to answer, as before there was a
    /// search; one that fails for now has the command retried.
    @Test func aSearchRefusedForGoodLeavesTheRetryToTheKeyAndOneThatFailsForNowIsRetried() async throws {
        let (sut, store, payments, output, clock) = try await makeSUT()
        try await store.charges.record(.requested(at: clock.now()), for: commandID("cmd-1"))
        clock.advance(by: 61)
        await payments.failSearches(with: RetryableError(code: .paymentProcessorUnavailable, context: "searching"))

        await #expect(throws: RetryableError.self) { try await sut.execute(request(commandID: "cmd-1")) }
        #expect(await payments.charges.isEmpty)

        await payments.failSearches(with: SearchRefused())
        clock.advance(by: 1)
        try await sut.execute(request(commandID: "cmd-1"))

        #expect(await payments.charges == [.charge(eur(5998), token: "tok_visa", idempotencyKey: commandID("cmd-1"))])
        #expect(try await store.orders(forCart: cartID()).count == 1)
        #expect(await output.messages.count == 1)
    }

    @Test func aRecordedApprovalOfAnotherAmountIsRefundedAndTheOrderFails() async throws {
        let (sut, store, payments, output, _) = try await makeSUT()
        let earlier = Payment(id: PaymentID("pay_other"), amount: eur(100))
        try await store.charges.record(.approved(earlier), for: commandID("cmd-1"))

        try await sut.execute(request(commandID: "cmd-1"))

        #expect(await rejections(output).map(\.reason) == [.orderFailed])
        #expect(await payments.charges.isEmpty)
        #expect(await payments.refunds == [.refund(earlier)])
        #expect(try await store.orders(forCart: cartID()).isEmpty)
    }

    @Test func aRetryRejectedBeforePaymentRefundsWhatTheEarlierAttemptCharged() async throws {
        let interceptor = StoreInterceptor()
        let (sut, store, payments, output, _) = try await makeSUT(interceptor: interceptor)
        interceptor.fail([.placeOrder])
        await #expect(throws: RetryableError.self) { try await sut.execute(request(commandID: "cmd-1")) }
        interceptor.fail([])
        _ = try await store.importCatalog([product("SKU-RED-M", price: eur(2999), stock: 1)])

        try await sut.execute(request(commandID: "cmd-1"))

        #expect(await rejections(output).map(\.reason) == [.outOfStock])
        // The approval was recorded when the order write failed: refunded by its id, without a search.
        #expect(await payments.refunds == [.refund(Payment(id: PaymentID("pay_cmd-1"), amount: eur(5998)))])
        #expect(try await store.orders(forCart: cartID()).isEmpty)
    }

    /// The customer emptied the cart (a sync of no lines, version 2) after an attempt charged and could
    /// not store the order: `cart-empty` is checked before the version, and gives the charge back too.
    @Test func aRetryRejectedAsCartEmptyRefundsWhatTheEarlierAttemptCharged() async throws {
        let interceptor = StoreInterceptor()
        let (sut, store, payments, output, _) = try await makeSUT(interceptor: interceptor)
        interceptor.fail([.placeOrder])
        await #expect(throws: RetryableError.self) { try await sut.execute(request(commandID: "cmd-1")) }
        interceptor.fail([])
        try await store.seed(cart(version: 2, lines: []))

        try await sut.execute(request(commandID: "cmd-1"))

        #expect(await rejections(output).map(\.reason) == [.cartEmpty])
        #expect(await payments.refunds == [.refund(Payment(id: PaymentID("pay_cmd-1"), amount: eur(5998)))])
        #expect(await payments.netCharged == 0)
    }

    /// The charge log says whether any attempt of the command (a retry, or the client publishing it
    /// again) asked for a charge: when none did, a rejection that could follow one asks the processor nothing.
    @Test func aRejectionOfACommandNoAttemptOfWhichAskedForAChargeAsksTheProcessorNothing() async throws {
        let (sut, _, payments, output, _) = try await makeSUT(carts: [cart(version: 3)])

        try await sut.execute(request(commandID: "cmd-1"))

        #expect(await rejections(output).map(\.reason) == [.cartChanged])
        #expect(await payments.messages.isEmpty)
    }

    /// An attempt killed between asking for the charge and hearing the answer leaves only the request:
    /// the processor's search, which may lag behind the charge, is not believed while it may still lag.
    @Test func aChargeWhoseAnswerWasLostIsSearchedForUntilTheSearchCanBeBelieved() async throws {
        let (sut, store, payments, output, clock) = try await makeSUT(carts: [cart(version: 3)])
        try await store.charges.record(.requested(at: clock.now()), for: commandID("cmd-1"))

        let error = await #expect(throws: RetryableError.self) { try await sut.execute(request(commandID: "cmd-1")) }
        #expect(error?.code == .paymentSearchLagging)
        #expect(await output.messages.isEmpty)

        clock.advance(by: 61)
        try await sut.execute(request(commandID: "cmd-1"))

        #expect(await rejections(output).map(\.reason) == [.cartChanged])
        #expect(
            await payments.searches == [.findCharge(idempotencyKey: commandID("cmd-1")), .findCharge(idempotencyKey: commandID("cmd-1"))])
        #expect(await payments.refunds.isEmpty)
    }

    /// A processor's refusal of its search for good, such as an account it is not offered to.
    struct SearchRefused: Error {}

    /// What takes 30 s of an attempt whose charge answer is then lost.
    enum SlowPart: CaseIterable, Sendable {
        /// The reads before the charge: the charge cannot be older than its request.
        case readsBeforeTheCharge
        /// The charge call: the charge can be made at any moment of it.
        case theChargeCall
    }

    /// The wait for the processor's search counts from the end of the charge call whose answer was lost,
    /// however long the attempt took before it or the call itself.
    @Test(arguments: SlowPart.allCases)
    func aChargeWhoseAnswerWasLostIsWaitedForFromTheEndOfItsCall(slow: SlowPart) async throws {
        let interceptor = StoreInterceptor()
        let (sut, _, _, output, clock) = try await makeSUT(
            answer: .fail, interceptor: interceptor, chargeTakes: slow == .theChargeCall ? 30 : 0)
        if slow == .readsBeforeTheCharge {
            interceptor.before(.loadProducts) { clock.advance(by: 30) }
        }
        let cause = RetryableError(code: .paymentProcessorUnavailable, context: "charging 5998 EUR")
        await #expect(throws: RetryableError.self) { try await sut.execute(request(commandID: "cmd-1")) }

        clock.advance(by: 59)
        let waiting = await #expect(throws: RetryableError.self) { try await sut.abandon(request(commandID: "cmd-1"), after: cause) }
        #expect(waiting?.code == .paymentSearchLagging, "89 s after the attempt began, but 59 s after the call ended")
        clock.advance(by: 2)
        try await sut.abandon(request(commandID: "cmd-1"), after: cause)

        #expect(await rejections(output).map(\.reason) == [.paymentUnavailable])
    }

    @Test func aChargeWhoseAnswerWasLostIsRefundedOnceTheSearchShowsIt() async throws {
        let (sut, store, payments, output, clock) = try await makeSUT(carts: [cart(version: 3)])
        _ = try await payments.charge(eur(5998), with: PaymentToken("tok_visa"), idempotencyKey: commandID("cmd-1"))
        try await store.charges.record(.requested(at: clock.now()), for: commandID("cmd-1"))

        try await sut.execute(request(commandID: "cmd-1"))

        #expect(await rejections(output).map(\.reason) == [.cartChanged])
        #expect(await payments.searches == [.findCharge(idempotencyKey: commandID("cmd-1"))])
        #expect(await payments.refunds == [.refund(Payment(id: PaymentID("pay_cmd-1"), amount: eur(5998)))])
    }

    @Test func aRejectionNoChargeCanPrecedeAsksForNoRefund() async throws {
        let (sut, _, payments, output, _) = try await makeSUT(carts: [])

        try await sut.execute(request())

        #expect(await rejections(output).map(\.reason) == [.cartNotFound])
        #expect(await payments.messages.isEmpty)
    }

    /// After the last retry the answer still waits for the search while it may lag: answering first
    /// would leave a charge whose answer was lost kept, with nobody asking for it back.
    @Test func abandonsAfterTheLastRetryAsPaymentUnavailableOnceTheSearchCanBeBelievedRefundingAnyCharge() async throws {
        let (sut, store, payments, output, clock) = try await makeSUT(answer: .fail)
        let cause = RetryableError(code: .paymentProcessorUnavailable, context: "charging 5998 EUR")
        await #expect(throws: RetryableError.self) { try await sut.execute(request(commandID: "cmd-1")) }

        let waiting = await #expect(throws: RetryableError.self) { try await sut.abandon(request(commandID: "cmd-1"), after: cause) }
        #expect(waiting?.code == .paymentSearchLagging)
        #expect(await output.messages.isEmpty)
        clock.advance(by: 61)
        try await sut.abandon(request(commandID: "cmd-1"), after: cause)

        let rejection = PlaceOrderRejection.unavailable(cartID: "cart-42", after: cause)
        #expect(rejection.reason == .paymentUnavailable)
        #expect(await rejections(output) == [rejection])
        #expect(await payments.charges.count == 1)
        #expect(
            await payments.searches == [.findCharge(idempotencyKey: commandID("cmd-1")), .findCharge(idempotencyKey: commandID("cmd-1"))])
        #expect(await payments.refunds.isEmpty)
        let recorded = try await store.placeOrderCommands.claim(commandID("cmd-1"), digest: nil, at: clock.now(), leaseUntil: clock.now())
        #expect(recorded == .completed(.rejected(rejection: rejection)))
    }

    @Test func abandoningAHandledCommandReportsItsOutcome() async throws {
        let (sut, _, payments, output, _) = try await makeSUT()
        try await sut.execute(request(commandID: "cmd-1"))

        try await sut.abandon(request(commandID: "cmd-1"), after: RetryableError(code: .databaseUnavailable, context: "storing"))

        #expect(await output.messages.count == 2)
        #expect(await rejections(output).isEmpty)
        #expect(await payments.refunds.isEmpty)
    }

    @Test func reportsTheOrderOfAWorkerThatFinishedFirstWithoutRefundingIt() async throws {
        let winner = Order(
            id: OrderID(placedBy: commandID("cmd-1")),
            cartID: cartID(),
            customerID: customerID(),
            lines: [line("SKU-RED-M", 2)],
            total: eur(5998),
            payment: Payment(id: PaymentID("pay_cmd-1"), amount: eur(5998)),
            placedAt: Date(timeIntervalSince1970: 1_799_999_990)
        )
        let interceptor = StoreInterceptor()
        let (sut, store, payments, output, _) = try await makeSUT(interceptor: interceptor)
        interceptor.before(.placeOrder) { _ = try await store.placeOrderCommands.record(.placed(order: winner), for: commandID("cmd-1")) }

        try await sut.execute(request(commandID: "cmd-1"))

        #expect(await output.messages == [.didPlace(winner)])
        #expect(await payments.refunds.isEmpty)
        #expect(await payments.payments.count == 1)
    }

    // MARK: Handling a command once

    @Test func replaysAPlacedOrderWithoutASecondChargeOrOrder() async throws {
        let (sut, store, payments, output, clock) = try await makeSUT()
        try await sut.execute(request(commandID: "cmd-1"))

        clock.advance(by: 3600)
        try await sut.execute(request(commandID: "cmd-1"))

        let messages = await output.messages
        #expect(messages.count == 2)
        #expect(messages.first == messages.last)
        #expect(await payments.charges.count == 1)
        #expect(try await store.orders(forCart: cartID()).count == 1)
        #expect(try await store.stock(of: "SKU-RED-M") == 8)
    }

    @Test func replaysARejectionWithoutChargingAgain() async throws {
        let (sut, _, payments, output, _) = try await makeSUT(answer: .decline(DeclineCode("card_declined")))
        try await sut.execute(request(commandID: "cmd-1"))
        await payments.answerCharges(with: .approve)

        try await sut.execute(request(commandID: "cmd-1"))

        #expect(await rejections(output).map(\.declineCode) == [DeclineCode("card_declined"), DeclineCode("card_declined")])
        #expect(await payments.charges.count == 1)
        #expect(await payments.payments.isEmpty)
    }

    @Test func rejectsAnotherCommandReusingAPlacedOrdersIdWithNothingOfTheOrderAndNoCharge() async throws {
        let (sut, store, payments, output, _) = try await makeSUT()
        try await sut.execute(request(commandID: "cmd-1", digest: "aaa"))

        try await sut.execute(request(commandID: "cmd-1", customerID: "cust-8", token: "tok_other", digest: "bbb"))

        #expect(
            await rejections(output) == [
                PlaceOrderRejection(
                    cartID: "cart-42", reason: .duplicateMessageID,
                    message: "message_id cmd-1 was already used by another command; nothing was done"
                )
            ])
        #expect(await payments.charges.count == 1)
        #expect(await payments.refunds.isEmpty)
        #expect(try await store.orders(forCart: cartID()).count == 1)
    }

    @Test func anOrderUnderTheIDOfASyncIsADuplicateAndChargesNothing() async throws {
        let (sut, store, payments, output, _) = try await makeSUT()
        _ = try await store.syncCarts.record(
            .rejected(rejection: SyncCartRejection(cartID: "cart-9", reason: .forbidden, message: "")), digest: nil, for: commandID("cmd-1")
        )

        try await sut.execute(request(commandID: "cmd-1"))

        #expect(await rejections(output).map(\.reason) == [.duplicateMessageID])
        #expect(await payments.messages.isEmpty)
        #expect(try await store.orders(forCart: cartID()).isEmpty)
    }

    @Test func abandoningAnOrderUnderTheIDOfASyncRejectsItAsADuplicate() async throws {
        let (sut, store, _, output, _) = try await makeSUT()
        _ = try await store.syncCarts.record(
            .rejected(rejection: SyncCartRejection(cartID: "cart-9", reason: .forbidden, message: "")), digest: nil, for: commandID("cmd-1")
        )

        try await sut.abandon(request(commandID: "cmd-1"), after: RetryableError(code: .databaseUnavailable, context: "test"))

        #expect(await rejections(output).map(\.reason) == [.duplicateMessageID])
    }

    @Test func replaysAPlacedOrderToTheSameCommandSentAgain() async throws {
        let (sut, _, payments, output, _) = try await makeSUT()
        try await sut.execute(request(commandID: "cmd-1", digest: "aaa"))

        try await sut.execute(request(commandID: "cmd-1", digest: "aaa"))

        let messages = await output.messages
        #expect(messages.count == 2)
        #expect(messages.first == messages.last)
        #expect(await payments.charges.count == 1)
    }

    @Test func reportsACommandAnotherWorkerHoldsAsRetryableAndChargesNothing() async throws {
        let (sut, store, payments, output, clock) = try await makeSUT()
        _ = try await store.placeOrderCommands.claim(commandID("cmd-1"), digest: nil, at: clock.now(), leaseUntil: clock.now() + 120)

        let error = await #expect(throws: RetryableError.self) { try await sut.execute(request(commandID: "cmd-1")) }

        #expect(error?.code == .commandInProgress)
        #expect(await payments.messages.isEmpty)
        #expect(await output.messages.isEmpty)
    }

    @Test func takesOverTheClaimOfACrashedWorkerOnceItsLeaseExpired() async throws {
        let (sut, store, payments, output, clock) = try await makeSUT()
        _ = try await store.placeOrderCommands.claim(commandID("cmd-1"), digest: nil, at: clock.now(), leaseUntil: clock.now() + 120)
        clock.advance(by: 121)

        try await sut.execute(request(commandID: "cmd-1"))

        #expect(await output.messages.count == 1)
        #expect(await payments.charges.count == 1)
    }

    // MARK: Helpers

    private func makeSUT(
        products: [Product] = [product("SKU-RED-M", price: eur(2999), stock: 10)],
        carts: [Cart] = [cart(version: 1, lines: [line("SKU-RED-M", 2, at: eur(2999))])],
        answer: PaymentProcessorSpy.Answer? = .approve,
        tokensOfInvalidForm: Set<String> = [],
        interceptor: StoreInterceptor = StoreInterceptor(),
        chargeTakes seconds: TimeInterval = 0,
        productsWithTheClaim: Bool = true
    ) async throws -> (
        sut: PlaceOrderUseCase, store: CheckoutStore, payments: PaymentProcessorSpy, output: PlaceOrderOutputSpy, clock: TestClock
    ) {
        let store = CheckoutStore.inMemory()
        _ = try await store.importCatalog(products)
        for cart in carts { try await store.seed(cart) }
        let payments = PaymentProcessorSpy(refusingTheFormOf: tokensOfInvalidForm)
        if let answer { await payments.answerCharges(with: answer) }
        let output = PlaceOrderOutputSpy()
        let clock = TestClock()
        let sut = PlaceOrderUseCase(
            store: InterceptedPlaceOrderStore(store: store.placeOrders, interceptor: interceptor, keepsProducts: productsWithTheClaim),
            catalog: InterceptedCatalog(catalog: store.catalog, interceptor: interceptor),
            orders: InterceptedOrders(orders: store.orders, interceptor: interceptor),
            payments: seconds > 0 ? SlowChargingProcessor(spy: payments, clock: clock, seconds: seconds) : payments,
            charges: InterceptedChargeLog(charges: store.charges, interceptor: interceptor),
            processedCommands: InterceptedProcessedCommands(commands: store.placeOrderCommands, interceptor: interceptor),
            output: output,
            now: clock.now,
            claimLease: 120
        )
        return (sut, store, payments, output, clock)
    }

    /// Whether another worker could take the command at `now`: nothing recorded for it and no claim held.
    /// Asking leaves, at most, a claim that has expired by `now`.
    private func anotherWorkerCanClaim(_ id: String, in store: CheckoutStore, at now: Date) async throws -> Bool {
        try await store.placeOrderCommands.claim(commandID(id), digest: nil, at: now, leaseUntil: now) == .claimed
    }

    private func request(
        commandID: String = "cmd-1",
        customerID: String = "cust-7",
        cartVersion: Int = 1,
        expectedTotal: Int64 = 5998,
        currency: String = "EUR",
        token: String = "tok_visa",
        digest: String? = nil
    ) -> PlaceOrderRequest {
        PlaceOrderRequest(
            commandID: commandID,
            cartID: "cart-42",
            customerID: customerID,
            cartVersion: cartVersion,
            expectedTotal: expectedTotal,
            currency: currency,
            paymentToken: token,
            digest: digest.map(CommandDigest.init)
        )
    }

    private func rejections(_ output: PlaceOrderOutputSpy) async -> [PlaceOrderRejection] {
        await output.messages.compactMap { if case .didReject(let rejection) = $0 { rejection } else { nil } }
    }
}
