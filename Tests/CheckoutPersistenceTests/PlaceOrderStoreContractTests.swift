import CheckoutDomain
import CheckoutPersistence
import CheckoutTestSupport
import Foundation
import PostgresNIO
import Synchronization
import Testing

/// The rules of ``PlaceOrderStore`` that every engine keeps: the claim is ``ProcessedCommands``'
/// (``ProcessedCommandsContractTests``), the cart and its products come with it only when the command
/// is claimed, and only then is what its charge request answers recorded in ``ChargeLog``.
@Suite struct PlaceOrderStoreContractTests {
    private let now = Fixtures.now

    @Test(arguments: TestDatabase.allCases)
    func aClaimedCommandComesWithTheStoredCartAndItsProducts(database: TestDatabase) async throws {
        try await database.withStore { store in
            let known = Fixtures.product("SKU-A")
            _ = try await store.importCatalog([known, Fixtures.product("SKU-C")])
            let cart = Fixtures.cart(version: 2, lines: [Fixtures.line("SKU-A", quantity: 2), Fixtures.line("SKU-B")])
            _ = try await store.syncCarts.record(Fixtures.synced(Fixtures.cart(version: 1)), digest: nil, for: Fixtures.command())
            _ = try await store.syncCarts.record(Fixtures.synced(cart), digest: nil, for: Fixtures.command())
            let command = Fixtures.command()
            let asked = ChargeRequests(answer: nil)

            let start = try await store.placeOrders.claim(
                command, digest: nil, at: now, leaseUntil: now + 60, cart: cart.id, chargeRequest: asked.answer)

            #expect(start == PlaceOrderClaim(claim: .claimed, cart: cart, products: [known.sku: known]))
            #expect(asked.reads == [ChargeRequests.Read(cart: cart, products: [known.sku: known])])
            #expect(try await store.charges.charge(of: command) == nil)
        }
    }

    /// The request is written with the claim, so the payment processor can be called at once.
    @Test(arguments: TestDatabase.allCases)
    func aClaimRecordsTheChargeItsRequestAnswers(database: TestDatabase) async throws {
        try await database.withStore { store in
            let product = Fixtures.product("SKU-A")
            _ = try await store.importCatalog([product])
            let cart = Fixtures.cart(lines: [Fixtures.line("SKU-A")])
            _ = try await store.syncCarts.record(Fixtures.synced(cart), digest: nil, for: Fixtures.command())
            let command = Fixtures.command()
            let requested = ChargeRecord.requested(at: now + 0.5)

            let start = try await store.placeOrders.claim(
                command, digest: nil, at: now, leaseUntil: now + 60, cart: cart.id, chargeRequest: ChargeRequests(answer: requested).answer)

            #expect(start == PlaceOrderClaim(claim: .claimed, cart: cart, products: [product.sku: product], recordedCharge: requested))
            #expect(try await store.charges.charge(of: command) == requested)
        }
    }

    /// What an earlier attempt recorded of its charge is what a later rejection refunds.
    @Test(arguments: TestDatabase.allCases)
    func aClaimWhoseRequestAnswersNothingKeepsTheChargeOfAnEarlierAttempt(database: TestDatabase) async throws {
        try await database.withStore { store in
            _ = try await store.importCatalog([Fixtures.product("SKU-A")])
            let cart = Fixtures.cart(lines: [Fixtures.line("SKU-A")])
            _ = try await store.syncCarts.record(Fixtures.synced(cart), digest: nil, for: Fixtures.command())
            let command = Fixtures.command()
            let earlier = ChargeRecord.approved(Payment(id: PaymentID("pay_1"), amount: Money(minorUnits: 1000, currency: Fixtures.eur)))
            _ = try await store.placeOrders.claim(command, digest: nil, at: now, leaseUntil: now + 60, cart: cart.id) { _, _ in earlier }
            try await store.placeOrderCommands.release(command)

            let start = try await store.placeOrders.claim(
                command, digest: nil, at: now + 1, leaseUntil: now + 61, cart: cart.id, chargeRequest: ChargeRequests(answer: nil).answer)

            #expect(start.claim == .claimed)
            #expect(start.recordedCharge == nil)
            #expect(start.earlierCharge == earlier)
            #expect(try await store.charges.charge(of: command) == earlier)
        }
    }

    /// An approval outlives the attempts after it: the payment processor may have forgotten the key by
    /// then, and the approval is what a retry takes instead of charging again.
    @Test(arguments: TestDatabase.allCases)
    func aClaimKeepsTheChargeOfAnEarlierAttemptAndAnswersIt(database: TestDatabase) async throws {
        try await database.withStore { store in
            let cart = try await Fixtures.seedCartsOfOneSKU(1, named: "cart-retried", stock: 10, in: store)[0]
            let product = Fixtures.product("SKU-A", stock: 10)
            let command = Fixtures.command()
            let earlier = ChargeRecord.approved(Payment(id: PaymentID("pay_1"), amount: Money(minorUnits: 1000, currency: Fixtures.eur)))
            _ = try await store.placeOrders.claim(command, digest: nil, at: now, leaseUntil: now + 60, cart: cart.id) { _, _ in
                .requested(at: now)
            }
            try await store.charges.record(earlier, for: command)
            try await store.placeOrderCommands.release(command)

            let start = try await store.placeOrders.claim(
                command, digest: nil, at: now + 1, leaseUntil: now + 61, cart: cart.id,
                chargeRequest: ChargeRequests(answer: .requested(at: now + 1)).answer)

            #expect(start == PlaceOrderClaim(claim: .claimed, cart: cart, products: [product.sku: product], earlierCharge: earlier))
            #expect(try await store.charges.charge(of: command) == earlier)
        }
    }

    /// A cart written by a worker of the version before, during a rolling upgrade, has no `skus`.
    @Test func aCartWrittenWithoutItsSKUsComesWithoutProductsOrAChargeOnPostgreSQL() async throws {
        try await TestDatabase.postgres.withFreshURL { url in
            let store = try await CheckoutStore.open(url, poolSize: 1, logger: TestLogger.logger)
            let cart = Fixtures.cart()
            _ = try await store.importCatalog([Fixtures.product("SKU-A")])
            _ = try await store.syncCarts.record(Fixtures.synced(cart), digest: nil, for: Fixtures.command())
            try await Self.forgetTheSKUsOfEveryCart(inSchemaOf: url)
            let command = Fixtures.command()
            let asked = ChargeRequests(answer: .requested(at: now))

            let start = try await store.placeOrders.claim(
                command, digest: nil, at: now, leaseUntil: now + 60, cart: cart.id, chargeRequest: asked.answer)
            let charge = try await store.charges.charge(of: command)
            await store.close()

            #expect(start == PlaceOrderClaim(claim: .claimed, cart: cart, products: nil))
            #expect(asked.reads.isEmpty)
            #expect(charge == nil)
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func aClaimedCommandOfACartNeverSyncedComesWithNoneAndRecordsNoCharge(database: TestDatabase) async throws {
        try await database.withStore { store in
            let command = Fixtures.command()
            let asked = ChargeRequests(answer: .requested(at: now))

            let start = try await store.placeOrders.claim(
                command, digest: nil, at: now, leaseUntil: now + 60, cart: CartID("never-synced"), chargeRequest: asked.answer)

            #expect(start == PlaceOrderClaim(claim: .claimed, cart: nil))
            #expect(asked.reads.isEmpty)
            #expect(try await store.charges.charge(of: command) == nil)
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func aCommandAnotherAttemptHoldsComesWithoutTheCartAndRecordsNoCharge(database: TestDatabase) async throws {
        try await database.withStore { store in
            let cart = Fixtures.cart(version: 1)
            _ = try await store.syncCarts.record(Fixtures.synced(cart), digest: nil, for: Fixtures.command())
            let command = Fixtures.command()
            _ = try await store.placeOrders.claim(command, digest: nil, at: now, leaseUntil: now + 60, cart: cart.id) { _, _ in nil }
            let asked = ChargeRequests(answer: .requested(at: now + 1))

            let start = try await store.placeOrders.claim(
                command, digest: nil, at: now + 1, leaseUntil: now + 61, cart: cart.id, chargeRequest: asked.answer)

            #expect(start == PlaceOrderClaim(claim: .inProgress(until: now + 60), cart: nil))
            #expect(try await store.charges.charge(of: command) == nil)
        }
    }

    /// On PostgreSQL claims that arrive together are taken in shared statements; each is answered as
    /// it would be alone: new commands claimed with their carts and charges, a cart never synced, a
    /// command with an outcome, and an id a sync holds (which fails the shared statement, so the
    /// others are taken again alone).
    @Test(arguments: TestDatabase.allCases)
    func claimsThatArriveTogetherAreEachAnsweredAsIfAlone(database: TestDatabase) async throws {
        try await database.withStore { store in
            let products = [Fixtures.product("SKU-A"), Fixtures.product("SKU-B")]
            _ = try await store.importCatalog(products)
            let carts = (0..<24).map {
                Fixtures.cart(cartID("cart-together-\($0)"), lines: [Fixtures.line("SKU-A"), Fixtures.line("SKU-B")])
            }
            for cart in carts {
                _ = try await store.syncCarts.record(Fixtures.synced(cart), digest: nil, for: Fixtures.command())
            }
            let completed = Fixtures.command()
            _ = try await store.placeOrderCommands.claim(completed, digest: nil, at: now, leaseUntil: now + 60)
            _ = try await store.placeOrderCommands.record(Fixtures.placeRejected(), for: completed)
            let heldBySync = Fixtures.command()
            _ = try await store.syncCarts.record(Fixtures.syncRejected(), digest: nil, for: heldBySync)
            var claims = carts.map { (Fixtures.command(), $0.id) }
            claims.append((Fixtures.command(), cartID("cart-never-synced")))
            claims.append((completed, carts[0].id))
            claims.append((heldBySync, carts[1].id))
            let requested = ChargeRecord.requested(at: now)

            let starts = try await withThrowingTaskGroup(of: (Int, PlaceOrderClaim).self) { group in
                for (index, (command, cart)) in claims.enumerated() {
                    group.addTask {
                        let start = try await store.placeOrders.claim(
                            command, digest: nil, at: now, leaseUntil: now + 60, cart: cart
                        ) { _, _ in requested }
                        return (index, start)
                    }
                }
                var starts = [PlaceOrderClaim?](repeating: nil, count: claims.count)
                for try await (index, start) in group { starts[index] = start }
                return starts
            }

            let known = Dictionary(uniqueKeysWithValues: products.map { ($0.sku, $0) })
            for (index, cart) in carts.enumerated() {
                #expect(starts[index] == PlaceOrderClaim(claim: .claimed, cart: cart, products: known, recordedCharge: requested))
                #expect(try await store.charges.charge(of: claims[index].0) == requested)
            }
            #expect(starts[24] == PlaceOrderClaim(claim: .claimed, cart: nil))
            #expect(try await store.charges.charge(of: claims[24].0) == nil)
            #expect(starts[25] == PlaceOrderClaim(claim: .completed(Fixtures.placeRejected()), cart: nil))
            #expect(starts[26] == PlaceOrderClaim(claim: .conflicting, cart: nil))
            #expect(try await store.charges.charge(of: heldBySync) == nil)
        }
    }

    /// Claims of retried commands that arrive together (on PostgreSQL, in shared statements) each keep
    /// and answer the charge their earlier attempt recorded; the new ones each record their own.
    @Test(arguments: TestDatabase.allCases)
    func claimsThatArriveTogetherEachKeepTheirEarlierCharge(database: TestDatabase) async throws {
        try await database.withStore { store in
            let carts = try await Fixtures.seedCartsOfOneSKU(24, named: "cart-retried", stock: 10, in: store)
            let commands = carts.map { _ in Fixtures.command() }
            let offered = carts.indices.map { ChargeRecord.requested(at: now + Double($0)) }
            let earlier = carts.indices.map { index in
                index.isMultiple(of: 2)
                    ? ChargeRecord.approved(Payment(id: PaymentID("pay_\(index)"), amount: Money(minorUnits: 1000, currency: Fixtures.eur)))
                    : nil
            }
            for (index, earlier) in earlier.enumerated() {
                guard let earlier else { continue }
                _ = try await store.placeOrders.claim(commands[index], digest: nil, at: now, leaseUntil: now + 60, cart: carts[index].id) {
                    _, _ in nil
                }
                try await store.charges.record(earlier, for: commands[index])
                try await store.placeOrderCommands.release(commands[index])
            }
            let before = store.statistics.roundTrips

            let starts = try await withThrowingTaskGroup(of: (Int, PlaceOrderClaim).self) { group in
                for index in carts.indices {
                    let (command, cart, charge) = (commands[index], carts[index].id, offered[index])
                    group.addTask {
                        (
                            index,
                            try await store.placeOrders.claim(command, digest: nil, at: now, leaseUntil: now + 60, cart: cart) { _, _ in
                                charge
                            }
                        )
                    }
                }
                var starts = [PlaceOrderClaim?](repeating: nil, count: carts.count)
                for try await (index, start) in group { starts[index] = start }
                return starts
            }

            for index in carts.indices {
                #expect(starts[index]?.recordedCharge == (earlier[index] == nil ? offered[index] : nil))
                #expect(starts[index]?.earlierCharge == earlier[index])
                #expect(try await store.charges.charge(of: commands[index]) == earlier[index] ?? offered[index])
            }
            if database == .postgres {
                let statements = store.statistics.roundTrips - before
                #expect(statements < 2 * carts.count, "\(statements) statements for \(carts.count) claims; alone, each is two")
            }
        }
    }

    @Test func claimsThatArriveTogetherShareStatementsOnPostgreSQL() async throws {
        try await TestDatabase.postgres.withStore { store in
            let carts = try await Fixtures.seedCartsOfOneSKU(40, named: "cart-shared", stock: 10, in: store)
            let before = store.statistics.roundTrips

            try await withThrowingTaskGroup(of: Void.self) { group in
                for cart in carts {
                    group.addTask {
                        let start = try await store.placeOrders.claim(
                            Fixtures.command(), digest: nil, at: now, leaseUntil: now + 60, cart: cart.id
                        ) { _, _ in nil }
                        #expect(start.claim == .claimed)
                    }
                }
                try await group.waitForAll()
            }

            let statements = store.statistics.roundTrips - before
            #expect(statements < carts.count, "\(statements) statements for \(carts.count) claims; alone, each is two")
        }
    }

    private static func forgetTheSKUsOfEveryCart(inSchemaOf url: String) async throws {
        let start = try #require(url.range(of: "schema=")).upperBound
        let schema = String(url[start...].prefix { $0 != "&" })
        let connection = try await ScratchDatabase.connectToPostgres(schema: schema)
        do {
            try await connection.query("UPDATE carts SET skus = NULL", logger: TestLogger.logger)
            try await connection.close()
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// A charge request that answers `answer` and keeps what it was asked about.
    private final class ChargeRequests: Sendable {
        struct Read: Equatable {
            let cart: Cart
            let products: [SKU: Product]
        }

        private let answered: ChargeRecord?
        private let asked = Mutex<[Read]>([])

        init(answer: ChargeRecord?) {
            answered = answer
        }

        var reads: [Read] { asked.withLock { $0 } }

        var answer: @Sendable (Cart, [SKU: Product]) -> ChargeRecord? {
            { [self] cart, products in
                asked.withLock { $0.append(Read(cart: cart, products: products)) }
                return answered
            }
        }
    }
}
