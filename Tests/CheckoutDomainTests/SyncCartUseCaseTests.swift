import CheckoutDomain
import CheckoutPersistence
import CheckoutTestSupport
import Foundation
import Testing

@Suite struct SyncCartUseCaseTests {
    // MARK: Accepted syncs

    @Test func syncsANewCartAtVersionOneWithCatalogPrices() async throws {
        let (sut, store, output, clock) = try await makeSUT(products: [
            product("SKU-RED-M", price: eur(2999)), product("SKU-BLUE-L", price: eur(1500)),
        ])

        try await sut.execute(request(items: [item("SKU-RED-M", 2), item("SKU-BLUE-L", 1)]))

        let expected = SyncedCart(
            cart: try Cart(
                id: cartID(),
                customerID: customerID(),
                version: 1,
                currency: currency("EUR"),
                lines: [line("SKU-RED-M", 2, at: eur(2999)), line("SKU-BLUE-L", 1, at: eur(1500))],
                isCheckedOut: false,
                syncedAt: clock.now()
            ),
            adjustments: []
        )
        #expect(await output.messages == [.didSync(expected)])
        #expect(expected.cart.subtotal == eur(7498))
        #expect(try await store.carts.cart(cartID()) == expected.cart)
    }

    @Test func syncsAnExistingCartToTheNextVersion() async throws {
        let (sut, store, output, _) = try await makeSUT(carts: [cart(version: 3)])

        try await sut.execute(request(baseVersion: 3))

        #expect(try await store.carts.cart(cartID())?.version == 4)
        #expect(await syncedVersions(output) == [4])
    }

    @Test func syncsAnEmptySnapshotToAnEmptyCart() async throws {
        let (sut, store, _, _) = try await makeSUT(carts: [cart(version: 1)])

        try await sut.execute(request(baseVersion: 1, items: []))

        #expect(try await store.carts.cart(cartID())?.lines == [])
    }

    // MARK: Business rejections

    @Test func rejectsAStaleBaseVersionWithTheCurrentVersion() async throws {
        let stored = cart(version: 2)
        let (sut, store, output, _) = try await makeSUT(carts: [stored])

        try await sut.execute(request(baseVersion: 1))

        #expect(
            await output.messages == [
                .didReject(
                    SyncCartRejection(
                        cartID: "cart-42", reason: .versionConflict, message: "cart cart-42 is at version 2, not 1", currentVersion: 2
                    ))
            ])
        #expect(try await store.carts.cart(cartID()) == stored)
    }

    @Test func rejectsABaseVersionAboveZeroForACartThatDoesNotExist() async throws {
        let (sut, store, output, _) = try await makeSUT()

        try await sut.execute(request(baseVersion: 1))

        #expect(await rejections(output).map(\.currentVersion) == [0])
        #expect(try await store.carts.cart(cartID()) == nil)
    }

    @Test func rejectsASyncThatLostTheRaceToAnotherSyncAsVersionConflict() async throws {
        let concurrentSync = cart(version: 1)
        let interceptor = StoreInterceptor()
        let (sut, store, output, _) = try await makeSUT(interceptor: interceptor)
        interceptor.before(.syncRecord) { try await store.seed(concurrentSync) }

        try await sut.execute(request(baseVersion: 0))

        #expect(await rejections(output).map(\.reason) == [.versionConflict])
        #expect(await rejections(output).map(\.currentVersion) == [1])
        #expect(try await store.carts.cart(cartID()) == concurrentSync)
    }

    @Test func rejectsASyncOfAnotherCustomersCartAsForbidden() async throws {
        let stored = cart(owner: "cust-8", version: 1)
        let (sut, store, output, _) = try await makeSUT(carts: [stored])

        try await sut.execute(request(customerID: "cust-7", baseVersion: 1))

        #expect(await rejections(output).map(\.reason) == [.forbidden])
        #expect(try await store.carts.cart(cartID()) == stored)
    }

    @Test func rejectsASyncOfACheckedOutCart() async throws {
        let stored = cart(version: 1, isCheckedOut: true)
        let (sut, store, output, _) = try await makeSUT(carts: [stored])

        try await sut.execute(request(baseVersion: 1))

        #expect(await rejections(output).map(\.reason) == [.cartCheckedOut])
        #expect(try await store.carts.cart(cartID()) == stored)
    }

    @Test func rejectsACurrencyTheCatalogDoesNotPriceInAsInvalidRequest() async throws {
        let (sut, store, output, _) = try await makeSUT(products: [product("SKU-RED-M", price: eur(2999))])

        try await sut.execute(request(currency: "USD"))

        let rejection = try #require(await rejections(output).first)
        #expect(rejection.reason == .invalidRequest)
        #expect(rejection.message.contains("currency USD is not a currency of the catalog"))
        #expect(try await store.carts.cart(cartID()) == nil)
    }

    @Test func rejectsASubtotalThatOverflowsInsteadOfTrapping() async throws {
        let (sut, store, output, _) = try await makeSUT(products: [
            product("SKU-A", price: eur(.max / 4), stock: 99),
            product("SKU-B", price: eur(.max / 4), stock: 99),
        ])

        try await sut.execute(request(items: [item("SKU-A", 3), item("SKU-B", 3)]))

        let rejection = try #require(await rejections(output).first)
        #expect(rejection.reason == .invalidRequest)
        #expect(rejection.message.contains("money-overflow"))
        #expect(try await store.carts.cart(cartID()) == nil)
    }

    @Test func checksTheRulesInTheContractsOrder() async throws {
        let (sut, _, output, _) = try await makeSUT(carts: [cart(owner: "cust-8", version: 2, isCheckedOut: true)])

        try await sut.execute(request(commandID: "cmd-1", baseVersion: 1, currency: "USD"))
        try await sut.execute(request(commandID: "cmd-2", baseVersion: 1))
        try await sut.execute(request(commandID: "cmd-3", baseVersion: 2))
        try await sut.execute(request(commandID: "cmd-4", customerID: "cust-8", baseVersion: 2))

        #expect(await rejections(output).map(\.reason) == [.invalidRequest, .versionConflict, .forbidden, .cartCheckedOut])
    }

    // MARK: Adjustments

    @Test func dropsAnUnknownSKU() async throws {
        let (sut, _, output, _) = try await makeSUT(products: [product("SKU-RED-M")])

        try await sut.execute(request(items: [item("SKU-RED-M", 1), item("SKU-GONE", 2)]))

        let synced = try #require(await syncedCarts(output).first)
        #expect(synced.cart.lines.map(\.sku) == [sku("SKU-RED-M")])
        #expect(synced.adjustments == [Adjustment(sku: sku("SKU-GONE"), reason: .unknownSKU, requested: 2, applied: 0)])
    }

    @Test func dropsASKUNotPricedInTheCartsCurrencyAsUnknown() async throws {
        let dollars = Money(minorUnits: 100, currency: currency("USD"))
        let (sut, _, output, _) = try await makeSUT(products: [product("SKU-RED-M"), product("SKU-US", price: dollars)])

        try await sut.execute(request(items: [item("SKU-US", 1)]))

        let synced = try #require(await syncedCarts(output).first)
        #expect(synced.cart.lines.isEmpty)
        #expect(synced.adjustments.map(\.reason) == [.unknownSKU])
    }

    @Test func dropsAnInactiveSKU() async throws {
        let (sut, _, output, _) = try await makeSUT(products: [product("SKU-RED-M"), product("SKU-OLD", isActive: false)])

        try await sut.execute(request(items: [item("SKU-OLD", 3), item("SKU-RED-M", 1)]))

        let synced = try #require(await syncedCarts(output).first)
        #expect(synced.cart.lines.map(\.sku) == [sku("SKU-RED-M")])
        #expect(synced.adjustments == [Adjustment(sku: sku("SKU-OLD"), reason: .inactiveSKU, requested: 3, applied: 0)])
    }

    @Test func clampsAQuantityAboveStockToTheStock() async throws {
        let (sut, _, output, _) = try await makeSUT(products: [product("SKU-RED-M", price: eur(2999), stock: 3)])

        try await sut.execute(request(items: [item("SKU-RED-M", 5)]))

        let synced = try #require(await syncedCarts(output).first)
        #expect(synced.cart.lines == [line("SKU-RED-M", 3, at: eur(2999))])
        #expect(synced.adjustments == [Adjustment(sku: sku("SKU-RED-M"), reason: .clampedToStock, requested: 5, applied: 3)])
    }

    @Test func dropsALineWhoseProductIsSoldOut() async throws {
        let (sut, _, output, _) = try await makeSUT(products: [product("SKU-RED-M", stock: 0)])

        try await sut.execute(request(items: [item("SKU-RED-M", 2)]))

        let synced = try #require(await syncedCarts(output).first)
        #expect(synced.cart.lines.isEmpty)
        #expect(synced.adjustments == [Adjustment(sku: sku("SKU-RED-M"), reason: .clampedToStock, requested: 2, applied: 0)])
    }

    @Test func mergesTheSameSKUOnSeveralLinesCappedAt99() async throws {
        let (sut, _, output, _) = try await makeSUT(products: [product("SKU-RED-M", price: eur(100), stock: 500), product("SKU-BLUE-L")])

        try await sut.execute(request(items: [item("SKU-RED-M", 60), item("SKU-BLUE-L", 1), item("SKU-RED-M", 50)]))

        let synced = try #require(await syncedCarts(output).first)
        #expect(synced.cart.lines.map(\.sku) == [sku("SKU-RED-M"), sku("SKU-BLUE-L")])
        #expect(synced.cart.lines.first?.quantity == 99)
        #expect(synced.adjustments == [Adjustment(sku: sku("SKU-RED-M"), reason: .merged, requested: 110, applied: 99)])
    }

    @Test func clampsAMergedLineToStockAfterMerging() async throws {
        let (sut, _, output, _) = try await makeSUT(products: [product("SKU-RED-M", stock: 4)])

        try await sut.execute(request(items: [item("SKU-RED-M", 2), item("SKU-RED-M", 3)]))

        let synced = try #require(await syncedCarts(output).first)
        #expect(
            synced.adjustments == [
                Adjustment(sku: sku("SKU-RED-M"), reason: .merged, requested: 5, applied: 5),
                Adjustment(sku: sku("SKU-RED-M"), reason: .clampedToStock, requested: 5, applied: 4),
            ])
    }

    // MARK: Rules of form

    @Test func acceptsExactly100Lines() async throws {
        let skus = (1...100).map { "SKU-\($0)" }
        let (sut, _, output, _) = try await makeSUT(products: skus.map { product($0) })

        try await sut.execute(request(items: skus.map { item($0, 1) }))

        #expect(await syncedCarts(output).first?.cart.lines.count == 100)
    }

    @Test func rejectsMoreThan100LinesAsInvalidRequest() async throws {
        let (sut, store, output, _) = try await makeSUT()

        try await sut.execute(request(items: (1...101).map { item("SKU-\($0)", 1) }))

        let rejection = try #require(await rejections(output).first)
        #expect(rejection.reason == .invalidRequest)
        #expect(rejection.message == "invalid request: items has 101 lines, at most 100 are allowed")
        #expect(try await recordedOutcome(of: "cmd-1", in: store) == .rejected(rejection: rejection))
    }

    @Test(arguments: [0, -1, 100])
    func rejectsAQuantityOutside1To99AsInvalidRequest(quantity: Int) async throws {
        let (sut, store, output, _) = try await makeSUT()

        try await sut.execute(request(items: [item("SKU-RED-M", quantity)]))

        #expect(
            await rejections(output) == [
                SyncCartRejection(
                    cartID: "cart-42",
                    reason: .invalidRequest,
                    message: "invalid request: items[0].quantity must be between 1 and 99 (is \(quantity))"
                )
            ])
        #expect(try await store.carts.cart(cartID()) == nil)
    }

    @Test func invalidRequestNamesEveryViolation() async throws {
        let interceptor = StoreInterceptor()
        let (sut, _, output, _) = try await makeSUT(interceptor: interceptor)
        let invalid = SyncCartRequest(
            commandID: String(repeating: "c", count: 201),
            cartID: "cart 42",
            customerID: "",
            baseVersion: 0,
            currency: "eur",
            items: [item("SKU/1", 1), item("SKU-2", 0)]
        )

        try await sut.execute(invalid)

        let rejection = try #require(await rejections(output).first)
        #expect(rejection.reason == .invalidRequest)
        #expect(rejection.cartID == "cart 42")
        for field in ["message_id", "cartId", "customerId", "currency", "items[0].sku", "items[1].quantity"] {
            #expect(rejection.message.contains("\(field) "), "message does not name \(field): \(rejection.message)")
        }
        #expect(interceptor.calls.isEmpty)
    }

    @Test func invalidRequestNamesTheFirst250ViolationsAndCountsTheRest() async throws {
        let (sut, _, output, _) = try await makeSUT()

        try await sut.execute(request(items: (0..<300).map { item("SKU-\($0)", 0) }))

        let message = try #require(await rejections(output).first?.message)
        #expect(message.hasPrefix("invalid request: items has 300 lines, at most 100 are allowed; items[0].quantity must be"))
        #expect(message.contains("items[248].quantity"))
        #expect(!message.contains("items[249].quantity"))
        #expect(message.hasSuffix("; and 51 more violations"))
    }

    // MARK: Handling a command once

    @Test func replaysAHandledCommandWithTheSameOutcomeAndNoSecondEffect() async throws {
        let (sut, store, output, clock) = try await makeSUT()
        try await sut.execute(request(commandID: "cmd-1"))
        let stored = try await store.carts.cart(cartID())

        clock.advance(by: 3600)
        try await sut.execute(request(commandID: "cmd-1"))

        let messages = await output.messages
        #expect(messages.count == 2)
        #expect(messages.first == messages.last)
        #expect(try await store.carts.cart(cartID()) == stored)
    }

    @Test func replaysTheSameCommandSentAgainWithTheSameDigest() async throws {
        let (sut, _, output, _) = try await makeSUT()
        try await sut.execute(request(commandID: "cmd-1", digest: "aaa"))

        try await sut.execute(request(commandID: "cmd-1", digest: "aaa"))

        #expect(await syncedVersions(output) == [1, 1])
    }

    @Test func rejectsAnotherCommandReusingAHandledIdWithNothingOfItsOutcomeAndNoEffect() async throws {
        let (sut, store, output, _) = try await makeSUT()
        try await sut.execute(request(commandID: "cmd-1", digest: "aaa"))
        let stored = try await store.carts.cart(cartID())

        try await sut.execute(request(commandID: "cmd-1", customerID: "cust-8", digest: "bbb"))

        #expect(
            await output.messages.last
                == .didReject(
                    SyncCartRejection(
                        cartID: "cart-42", reason: .duplicateMessageID,
                        message: "message_id cmd-1 was already used by another command; nothing was done"
                    )))
        #expect(try await store.carts.cart(cartID()) == stored)
        #expect(try await recordedOutcome(of: "cmd-1", in: store).map { if case .synced = $0 { true } else { false } } == true)
    }

    @Test func abandoningAnotherCommandReusingAHandledIdRejectsItAsADuplicate() async throws {
        let (sut, _, output, _) = try await makeSUT()
        try await sut.execute(request(commandID: "cmd-1", digest: "aaa"))

        try await sut.abandon(
            request(commandID: "cmd-1", digest: "bbb"), after: RetryableError(code: .databaseUnavailable, context: "test"))

        #expect(await rejections(output).map(\.reason) == [.duplicateMessageID])
    }

    @Test func aRejectionOfFormIsRecordedSoAnotherBodyUnderItsIDIsADuplicateAndTheSameBodyIsAnsweredAgain() async throws {
        let (sut, store, output, _) = try await makeSUT()
        try await sut.execute(request(commandID: "cmd-1", items: [item("SKU-RED-M", 0)], digest: "aaa"))

        try await sut.execute(request(commandID: "cmd-1", digest: "bbb"))
        try await sut.execute(request(commandID: "cmd-1", items: [item("SKU-RED-M", 0)], digest: "aaa"))

        let answers = await rejections(output)
        #expect(answers.map(\.reason) == [.invalidRequest, .duplicateMessageID, .invalidRequest])
        #expect(answers.first == answers.last)
        #expect(try await store.carts.cart(cartID()) == nil)
    }

    @Test func aSyncUnderTheIDOfAnOrderIsADuplicateAndStoresNothing() async throws {
        let (sut, store, output, clock) = try await makeSUT()
        _ = try await store.placeOrderCommands.claim(commandID("cmd-1"), digest: nil, at: clock.now(), leaseUntil: clock.now() + 120)

        try await sut.execute(request(commandID: "cmd-1"))

        #expect(await rejections(output).map(\.reason) == [.duplicateMessageID])
        #expect(try await store.carts.cart(cartID()) == nil)
    }

    @Test func replaysARecordedRejection() async throws {
        let (sut, store, output, _) = try await makeSUT(carts: [cart(owner: "cust-8")])
        try await sut.execute(request(commandID: "cmd-1", baseVersion: 1))
        // At version 2 the request's base version 1 would now be a version conflict, if it were decided again.
        try await store.seed(cart(owner: "cust-8", version: 2))

        try await sut.execute(request(commandID: "cmd-1", baseVersion: 1))

        #expect(await rejections(output).map(\.reason) == [.forbidden, .forbidden])
    }

    @Test func aDeliveryRacingTheSameCommandReportsTheOutcomeRecordedFirst() async throws {
        let interceptor = StoreInterceptor()
        let (sut, store, output, _) = try await makeSUT(interceptor: interceptor)
        interceptor.before(.syncRecord) {
            let first = cart(version: 1, lines: [line("SKU-RED-M", 2)], syncedAt: .distantPast)
            let outcome = SyncCartOutcome.synced(cart: SyncedCart(cart: first, adjustments: []))
            _ = try await store.syncCarts.record(outcome, digest: nil, for: commandID("cmd-1"))
        }

        try await sut.execute(request(commandID: "cmd-1"))

        #expect(await syncedCarts(output).map(\.cart.syncedAt) == [.distantPast])
        #expect(try await store.carts.cart(cartID())?.syncedAt == .distantPast)
    }

    @Test func reportsTheOutcomeOfAWorkerThatFinishedFirst() async throws {
        let winner = SyncCartRejection(cartID: "cart-42", reason: .forbidden, message: "recorded first")
        let interceptor = StoreInterceptor()
        let (sut, store, output, _) = try await makeSUT(interceptor: interceptor)
        interceptor.before(.syncRecord) {
            _ = try await store.syncCarts.record(.rejected(rejection: winner), digest: nil, for: commandID("cmd-1"))
        }

        try await sut.execute(request(commandID: "cmd-1"))

        #expect(await output.messages == [.didReject(winner)])
        #expect(try await store.carts.cart(cartID()) == nil)
    }

    @Test func aDatabaseFailureIsRetryableAndRecordsNothing() async throws {
        let interceptor = StoreInterceptor()
        let (sut, store, output, _) = try await makeSUT(interceptor: interceptor)
        interceptor.fail([.syncSnapshot])

        let error = await #expect(throws: RetryableError.self) { try await sut.execute(request(commandID: "cmd-1")) }

        #expect(error?.code == .databaseUnavailable)
        #expect(await output.messages.isEmpty)
        #expect(try await recordedOutcome(of: "cmd-1", in: store) == nil)

        interceptor.fail([])
        try await sut.execute(request(commandID: "cmd-1"))
        #expect(await syncedVersions(output) == [1])
    }

    @Test func anOutcomeThatCouldNotBePublishedIsReportedAgainOnRedelivery() async throws {
        let (sut, store, output, _) = try await makeSUT()
        await output.failPublishing(true)
        await #expect(throws: ConnectionLost.self) { try await sut.execute(request(commandID: "cmd-1")) }

        await output.failPublishing(false)
        try await sut.execute(request(commandID: "cmd-1"))

        #expect(await syncedVersions(output) == [1])
        #expect(try await store.carts.cart(cartID())?.version == 1)
    }

    // MARK: Helpers

    @Test func abandonsAfterTheLastRetryAsUnavailableWithoutRecordingIt() async throws {
        let (sut, store, output, _) = try await makeSUT()
        let cause = RetryableError(code: .databaseUnavailable, context: "saving cart cart-42")

        try await sut.abandon(request(commandID: "cmd-1"), after: cause)
        try await sut.execute(request(commandID: "cmd-1"))

        #expect(await rejections(output) == [.unavailable(cartID: "cart-42", after: cause)])
        #expect(await syncedVersions(output) == [1])
        #expect(try await store.carts.cart(cartID())?.version == 1)
    }

    @Test func abandonsAsUnavailableEvenWhileTheDatabaseIsDown() async throws {
        let interceptor = StoreInterceptor()
        let (sut, _, output, _) = try await makeSUT(interceptor: interceptor)
        interceptor.fail([.syncSnapshot])
        let cause = RetryableError(code: .databaseUnavailable, context: "reading")

        try await sut.abandon(request(commandID: "cmd-1"), after: cause)

        #expect(await rejections(output) == [.unavailable(cartID: "cart-42", after: cause)])
    }

    @Test func aRejectionOfFormIsRetriedWhileTheDatabaseIsDownAndAnsweredOnceGivenUp() async throws {
        let interceptor = StoreInterceptor()
        let (sut, _, output, _) = try await makeSUT(interceptor: interceptor)
        interceptor.fail([.syncRecord])
        let invalid = request(commandID: "cmd-1", items: [item("SKU-RED-M", 0)])

        await #expect(throws: RetryableError.self) { try await sut.execute(invalid) }
        try await sut.abandon(invalid, after: RetryableError(code: .databaseUnavailable, context: "recording"))

        #expect(await rejections(output).map(\.reason) == [.invalidRequest])
    }

    @Test func abandoningAHandledCommandReportsItsOutcome() async throws {
        let (sut, _, output, _) = try await makeSUT()
        try await sut.execute(request(commandID: "cmd-1"))

        try await sut.abandon(request(commandID: "cmd-1"), after: RetryableError(code: .databaseUnavailable, context: "saving"))

        #expect(await syncedVersions(output) == [1, 1])
        #expect(await rejections(output).isEmpty)
    }

    private func makeSUT(
        products: [Product] = [product("SKU-RED-M")],
        carts stored: [Cart] = [],
        interceptor: StoreInterceptor = StoreInterceptor()
    ) async throws -> (sut: SyncCartUseCase, store: CheckoutStore, output: SyncCartOutputSpy, clock: TestClock) {
        let store = CheckoutStore.inMemory()
        _ = try await store.importCatalog(products)
        for cart in stored { try await store.seed(cart) }
        let output = SyncCartOutputSpy()
        let clock = TestClock()
        let ports = InterceptedSyncCartStore(store: store.syncCarts, interceptor: interceptor)
        let sut = SyncCartUseCase(store: ports, output: output, now: clock.now)
        return (sut, store, output, clock)
    }

    /// What the store recorded as the outcome of `id`, read as the use case reads it.
    private func recordedOutcome(of id: String, in store: CheckoutStore) async throws -> SyncCartOutcome? {
        try await store.syncCarts.snapshot(for: commandID(id), cart: cartID(), currency: currency("EUR"), skus: []).recorded?.outcome
    }

    private func request(
        commandID: String = "cmd-1",
        customerID: String = "cust-7",
        baseVersion: Int = 0,
        currency: String = "EUR",
        items: [RequestedItem] = [RequestedItem(sku: "SKU-RED-M", quantity: 2)],
        digest: String? = nil
    ) -> SyncCartRequest {
        SyncCartRequest(
            commandID: commandID, cartID: "cart-42", customerID: customerID, baseVersion: baseVersion, currency: currency, items: items,
            digest: digest.map(CommandDigest.init))
    }

    private func item(_ sku: String, _ quantity: Int) -> RequestedItem {
        RequestedItem(sku: sku, quantity: quantity)
    }

    private func syncedCarts(_ output: SyncCartOutputSpy) async -> [SyncedCart] {
        await output.messages.compactMap { if case .didSync(let cart) = $0 { cart } else { nil } }
    }

    private func syncedVersions(_ output: SyncCartOutputSpy) async -> [Int] {
        await syncedCarts(output).map(\.cart.version)
    }

    private func rejections(_ output: SyncCartOutputSpy) async -> [SyncCartRejection] {
        await output.messages.compactMap { if case .didReject(let rejection) = $0 { rejection } else { nil } }
    }
}
