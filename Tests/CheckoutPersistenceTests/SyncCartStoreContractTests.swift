import CheckoutDomain
import CheckoutPersistence
import CheckoutTestSupport
import Foundation
import Synchronization
import Testing

/// The rules of ``SyncCartStore`` and ``CartRepository`` that every engine keeps.
@Suite struct SyncCartStoreContractTests {
    @Test(arguments: TestDatabase.allCases)
    func findsNoCartThatWasNeverSynced(database: TestDatabase) async throws {
        try await database.withStore { store in
            let read = try await snapshot(of: store)

            #expect(read == SyncCartSnapshot(recorded: nil, cart: nil, isCurrencyPriced: false, products: [:]))
            #expect(try await store.carts.cart(cartID()) == nil)
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func storesANewCartAtVersionOneAndReadsItBackUnchanged(database: TestDatabase) async throws {
        try await database.withStore { store in
            let cart = Fixtures.cart(
                version: 1, lines: [Fixtures.line("SKU-A", quantity: 2), Fixtures.line("SKU-B", quantity: 1, price: 250)])

            let result = try await store.syncCarts.record(Fixtures.synced(cart), digest: nil, for: Fixtures.command())

            #expect(result == .recorded(Fixtures.synced(cart)))
            #expect(try await store.carts.cart(cart.id) == cart)
            #expect(try await snapshot(of: store).cart == cart)
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func readsTheRequestedProductsTheCatalogKnowsAndWhetherTheCurrencyIsPriced(database: TestDatabase) async throws {
        try await database.withStore { store in
            let products = [Fixtures.product("SKU-A"), Fixtures.product("SKU-B", stock: 0, isActive: false), Fixtures.product("SKU-C")]
            _ = try await store.importCatalog(products)

            let read = try await snapshot(of: store, skus: ["SKU-A", "SKU-B", "SKU-UNKNOWN"])

            #expect(read.products == [sku("SKU-A"): products[0], sku("SKU-B"): products[1]])
            #expect(read.isCurrencyPriced)
            #expect(try await snapshot(of: store, currency: Fixtures.usd).isCurrencyPriced == false)
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func replacesACartThatIsAtTheVersionBefore(database: TestDatabase) async throws {
        try await database.withStore { store in
            let first = Fixtures.cart(version: 1)
            let second = Fixtures.cart(version: 2, lines: [Fixtures.line("SKU-B", quantity: 3)])
            _ = try await store.syncCarts.record(Fixtures.synced(first), digest: nil, for: Fixtures.command())

            let result = try await store.syncCarts.record(Fixtures.synced(second), digest: nil, for: Fixtures.command())

            #expect(result == .recorded(Fixtures.synced(second)))
            #expect(try await store.carts.cart(second.id) == second)
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func rejectsACartFromAnOldVersionWithTheCurrentVersionAndRecordsNothing(database: TestDatabase) async throws {
        try await database.withStore { store in
            let stored = Fixtures.cart(version: 1)
            let stale = Fixtures.cart(version: 1, lines: [Fixtures.line("SKU-B")])
            let command = Fixtures.command()
            _ = try await store.syncCarts.record(Fixtures.synced(stored), digest: nil, for: Fixtures.command())

            let result = try await store.syncCarts.record(Fixtures.synced(stale), digest: nil, for: command)

            #expect(result == .versionConflict(currentVersion: 1))
            #expect(try await store.carts.cart(stored.id) == stored)
            #expect(try await snapshot(of: store, command: command).recorded == nil)
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func neverReplacesACheckedOutCart(database: TestDatabase) async throws {
        try await database.withStore { store in
            let checkedOut = Fixtures.cart(version: 1, isCheckedOut: true)
            let resync = Fixtures.cart(version: 2)
            _ = try await store.syncCarts.record(Fixtures.synced(checkedOut), digest: nil, for: Fixtures.command())

            let result = try await store.syncCarts.record(Fixtures.synced(resync), digest: nil, for: Fixtures.command())

            #expect(result == .versionConflict(currentVersion: 1))
            #expect(try await store.carts.cart(checkedOut.id) == checkedOut)
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func recordsTheCommandsOutcomeAndDigestWithTheCart(database: TestDatabase) async throws {
        try await database.withStore { store in
            let cart = Fixtures.cart()
            let command = Fixtures.command()
            let digest = CommandDigest("digest-1")

            _ = try await store.syncCarts.record(Fixtures.synced(cart), digest: digest, for: command)

            #expect(try await snapshot(of: store, command: command).recorded == RecordedOutcome(Fixtures.synced(cart), digest: digest))
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func recordsARejectionWithoutACart(database: TestDatabase) async throws {
        try await database.withStore { store in
            let command = Fixtures.command()

            let result = try await store.syncCarts.record(Fixtures.syncRejected(), digest: nil, for: command)

            #expect(result == .recorded(Fixtures.syncRejected()))
            #expect(try await snapshot(of: store, command: command).recorded == RecordedOutcome(Fixtures.syncRejected(), digest: nil))
            #expect(try await store.carts.cart(cartID()) == nil)
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func aCommandWithAnOutcomeAlreadyStoresNothingAndReportsThatOutcomeWithItsDigest(database: TestDatabase) async throws {
        try await database.withStore { store in
            let cart = Fixtures.cart()
            let command = Fixtures.command()
            let first = CommandDigest("first")
            _ = try await store.syncCarts.record(Fixtures.syncRejected("first"), digest: first, for: command)

            let result = try await store.syncCarts.record(Fixtures.synced(cart), digest: CommandDigest("second"), for: command)

            #expect(result == .alreadyRecorded(RecordedOutcome(Fixtures.syncRejected("first"), digest: first)))
            #expect(try await store.carts.cart(cart.id) == nil)
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func aSyncRecordsWhatItsDecisionMakesOfTheSnapshotWithTheCart(database: TestDatabase) async throws {
        try await database.withStore { store in
            let product = Fixtures.product("SKU-A")
            _ = try await store.importCatalog([product])
            let stored = Fixtures.cart(version: 1)
            _ = try await store.syncCarts.record(Fixtures.synced(stored), digest: nil, for: Fixtures.command())
            let next = Fixtures.cart(version: 2, lines: [Fixtures.line("SKU-A", quantity: 3)])
            let command = Fixtures.command()
            let digest = CommandDigest("digest-1")
            let decision = Decisions(answer: Fixtures.synced(next))

            let result = try await sync(command, digest: digest, skus: ["SKU-A", "SKU-UNKNOWN"], in: store, deciding: decision)

            #expect(result == .recorded(Fixtures.synced(next)))
            #expect(
                decision.snapshots
                    == [SyncCartSnapshot(recorded: nil, cart: stored, isCurrencyPriced: true, products: [product.sku: product])])
            #expect(try await store.carts.cart(next.id) == next)
            #expect(try await snapshot(of: store, command: command).recorded == RecordedOutcome(Fixtures.synced(next), digest: digest))
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func aSyncOfACommandWithAnOutcomeDecidesNothingAndReportsThatOutcome(database: TestDatabase) async throws {
        try await database.withStore { store in
            let command = Fixtures.command()
            let first = CommandDigest("first")
            _ = try await store.syncCarts.record(Fixtures.syncRejected("first"), digest: first, for: command)
            let decision = Decisions(answer: Fixtures.synced(Fixtures.cart()))

            let result = try await sync(command, digest: CommandDigest("second"), in: store, deciding: decision)

            #expect(result == .alreadyRecorded(RecordedOutcome(Fixtures.syncRejected("first"), digest: first)))
            #expect(decision.snapshots.isEmpty)
            #expect(try await store.carts.cart(cartID()) == nil)
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func aSyncWhoseDecisionConflictsWithTheStoredCartRecordsNothing(database: TestDatabase) async throws {
        try await database.withStore { store in
            let stored = Fixtures.cart(version: 1)
            _ = try await store.syncCarts.record(Fixtures.synced(stored), digest: nil, for: Fixtures.command())
            let command = Fixtures.command()

            let result = try await sync(
                command, in: store, deciding: Decisions(answer: Fixtures.synced(Fixtures.cart(version: 1, lines: [Fixtures.line("SKU-B")])))
            )

            #expect(result == .versionConflict(currentVersion: 1))
            #expect(try await store.carts.cart(stored.id) == stored)
            #expect(try await snapshot(of: store, command: command).recorded == nil)
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func aSyncOfAnIDAnOrderHoldsRecordsNothing(database: TestDatabase) async throws {
        try await database.withStore { store in
            let command = Fixtures.command()
            _ = try await store.placeOrderCommands.claim(command, digest: nil, at: Fixtures.now, leaseUntil: Fixtures.now + 60)

            let result = try await sync(command, in: store, deciding: Decisions(answer: Fixtures.synced(Fixtures.cart())))

            #expect(result == .usedByAnotherCommand)
            #expect(try await store.carts.cart(cartID()) == nil)
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func syncsThatArriveTogetherAreEachAnsweredAsIfAlone(database: TestDatabase) async throws {
        try await database.withStore { store in
            _ = try await store.importCatalog([Fixtures.product("SKU-A")])
            let taken = Fixtures.cart(cartID("cart-taken"), version: 1)
            _ = try await store.syncCarts.record(Fixtures.synced(taken), digest: nil, for: Fixtures.command())
            let ordered = Fixtures.command()
            _ = try await store.placeOrderCommands.claim(ordered, digest: nil, at: Fixtures.now, leaseUntil: Fixtures.now + 60)
            let twice = Fixtures.command()
            let newCarts = (0..<24).map { Fixtures.cart(cartID("cart-together-\($0)"), version: 1) }
            var syncs: [(CommandID, CartID, SyncCartOutcome)] = newCarts.map { (Fixtures.command(), $0.id, Fixtures.synced($0)) }
            syncs.append((twice, cartID("cart-twice"), Fixtures.synced(Fixtures.cart(cartID("cart-twice")))))
            syncs.append((twice, cartID("cart-twice"), Fixtures.synced(Fixtures.cart(cartID("cart-twice")))))
            syncs.append(
                (Fixtures.command(), taken.id, Fixtures.synced(Fixtures.cart(taken.id, version: 1, lines: [Fixtures.line("SKU-A")]))))
            syncs.append((Fixtures.command(), cartID("cart-rejected"), Fixtures.syncRejected()))
            syncs.append((ordered, cartID("cart-of-an-order-id"), Fixtures.synced(Fixtures.cart(cartID("cart-of-an-order-id")))))

            let results = try await withThrowingTaskGroup(of: (Int, SyncCartRecordResult).self) { group in
                for (index, (command, cart, outcome)) in syncs.enumerated() {
                    group.addTask {
                        let result = try await store.syncCarts.sync(
                            for: command, cart: cart, currency: Fixtures.eur, skus: [sku("SKU-A")], digest: nil, decide: { _ in outcome })
                        return (index, result)
                    }
                }
                var results = [SyncCartRecordResult?](repeating: nil, count: syncs.count)
                for try await (index, result) in group { results[index] = result }
                return results
            }

            for (index, cart) in newCarts.enumerated() {
                #expect(results[index] == .recorded(Fixtures.synced(cart)))
                #expect(try await store.carts.cart(cart.id) == cart)
            }
            let deliveries = [results[24], results[25]]
            let twiceSynced = Fixtures.synced(Fixtures.cart(cartID("cart-twice")))
            #expect(deliveries.contains(.recorded(twiceSynced)))
            #expect(deliveries.contains(.alreadyRecorded(RecordedOutcome(twiceSynced, digest: nil))))
            #expect(results[26] == .versionConflict(currentVersion: 1))
            #expect(try await store.carts.cart(taken.id) == taken)
            #expect(results[27] == .recorded(Fixtures.syncRejected()))
            #expect(results[28] == .usedByAnotherCommand)
            #expect(try await store.carts.cart(cartID("cart-of-an-order-id")) == nil)
        }
    }

    @Test func syncsThatArriveTogetherShareStatementsOnPostgreSQL() async throws {
        try await TestDatabase.postgres.withStore { store in
            _ = try await store.importCatalog([Fixtures.product("SKU-A")])
            let carts = (0..<40).map { Fixtures.cart(cartID("cart-shared-\($0)"), version: 1) }
            let before = store.statistics.roundTrips

            try await withThrowingTaskGroup(of: Void.self) { group in
                for cart in carts {
                    group.addTask {
                        let result = try await store.syncCarts.sync(
                            for: Fixtures.command(), cart: cart.id, currency: Fixtures.eur, skus: [sku("SKU-A")], digest: nil,
                            decide: { _ in Fixtures.synced(cart) })
                        #expect(result == .recorded(Fixtures.synced(cart)))
                    }
                }
                try await group.waitForAll()
            }

            let statements = store.statistics.roundTrips - before
            #expect(statements < carts.count, "\(statements) statements for \(carts.count) syncs; alone, each is two")
        }
    }

    private func sync(
        _ command: CommandID, digest: CommandDigest? = nil, skus: [String] = [], in store: CheckoutStore, deciding decision: Decisions
    ) async throws -> SyncCartRecordResult {
        try await store.syncCarts.sync(
            for: command, cart: cartID(), currency: Fixtures.eur, skus: Set(skus.map { sku($0) }), digest: digest, decide: decision.decide)
    }

    private func snapshot(
        of store: CheckoutStore,
        command: CommandID = Fixtures.command(),
        currency: CurrencyCode = Fixtures.eur,
        skus: [String] = []
    ) async throws -> SyncCartSnapshot {
        try await store.syncCarts.snapshot(for: command, cart: cartID(), currency: currency, skus: Set(skus.map { sku($0) }))
    }

    /// A decision that answers `answer` and keeps the snapshots it was asked about.
    private final class Decisions: Sendable {
        private let answered: SyncCartOutcome
        private let asked = Mutex<[SyncCartSnapshot]>([])

        init(answer: SyncCartOutcome) {
            answered = answer
        }

        var snapshots: [SyncCartSnapshot] { asked.withLock { $0 } }

        var decide: @Sendable (SyncCartSnapshot) -> SyncCartOutcome {
            { [self] snapshot in
                asked.withLock { $0.append(snapshot) }
                return answered
            }
        }
    }
}
