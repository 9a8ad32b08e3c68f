import CheckoutDomain
import CheckoutPersistence
import CheckoutTestSupport
import Foundation
import Testing

/// Several workers at once on one database: one winner, never oversold, one effect per command.
@Suite struct ConcurrencyTests {
    private static let contenders = 8

    @Test(arguments: TestDatabase.allCases)
    func concurrentSyncsOfOneCartLetOneWinAndTellTheOthersOfAConflict(database: TestDatabase) async throws {
        try await database.withStore { store in
            let results = try await Self.concurrently { attempt in
                let cart = Fixtures.cart(version: 1, lines: [Fixtures.line("SKU-A", quantity: attempt + 1)])
                return try await store.syncCarts.record(Fixtures.synced(cart), digest: nil, for: Fixtures.command())
            }

            #expect(results.filter { if case .recorded = $0 { true } else { false } }.count == 1)
            #expect(results.filter { $0 == .versionConflict(currentVersion: 1) }.count == Self.contenders - 1)
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func concurrentOrdersForScarceStockNeverOversell(database: TestDatabase) async throws {
        try await database.withStore { store in
            _ = try await store.importCatalog([Fixtures.product("SKU-LAST", stock: 3)])
            var placements: [(Order, CommandID)] = []
            for index in 0..<Self.contenders {
                let cart = Fixtures.cart(cartID("cart-\(index)"), lines: [Fixtures.line("SKU-LAST")])
                _ = try await store.syncCarts.record(Fixtures.synced(cart), digest: nil, for: Fixtures.command())
                let command = Fixtures.command()
                placements.append((Fixtures.order(for: cart, by: command), command))
            }
            let orders = placements

            let results = try await Self.concurrently { index in
                let (order, command) = orders[index]
                return try await store.orders.place(order, fromCartVersion: 1, recording: .placed(order: order), for: command)
            }

            #expect(results.filter { $0 == .placed }.count == 3)
            #expect(results.filter { $0 == .outOfStock([sku("SKU-LAST")]) }.count == Self.contenders - 3)
            #expect(try await store.catalog.products([sku("SKU-LAST")]).values.first?.stock == 0)
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func concurrentClaimsOfOneCommandLetExactlyOneWorkerHandleIt(database: TestDatabase) async throws {
        try await database.withStore { store in
            let command = Fixtures.command()

            let results = try await Self.concurrently { _ in
                try await store.placeOrderCommands.claim(command, digest: nil, at: Fixtures.now, leaseUntil: Fixtures.now + 60)
            }

            #expect(results.filter { $0 == .claimed }.count == 1)
            #expect(results.filter { $0 == .inProgress(until: Fixtures.now + 60) }.count == Self.contenders - 1)
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func concurrentDuplicatesOfOnePlacementStoreOneOrder(database: TestDatabase) async throws {
        try await database.withStore { store in
            _ = try await store.importCatalog([Fixtures.product("SKU-A", stock: 50)])
            let cart = Fixtures.cart()
            _ = try await store.syncCarts.record(Fixtures.synced(cart), digest: nil, for: Fixtures.command())
            let command = Fixtures.command()
            let order = Fixtures.order(for: cart, by: command)

            let results = try await Self.concurrently { _ in
                try await store.orders.place(order, fromCartVersion: 1, recording: .placed(order: order), for: command)
            }

            #expect(results.filter { $0 == .placed }.count == 1)
            #expect(results.filter { $0 == .commandAlreadyHandled(.placed(order: order)) }.count == Self.contenders - 1)
            #expect(try await store.orders(forCart: cart.id) == [order])
            #expect(try await store.catalog.products([sku("SKU-A")]).values.first?.stock == 48)
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func concurrentDuplicatesOfOneSyncSaveOnce(database: TestDatabase) async throws {
        try await database.withStore { store in
            let cart = Fixtures.cart()
            let command = Fixtures.command()

            let results = try await Self.concurrently { _ in
                try await store.syncCarts.record(Fixtures.synced(cart), digest: nil, for: command)
            }

            #expect(results.filter { $0 == .recorded(Fixtures.synced(cart)) }.count == 1)
            #expect(
                results.filter { $0 == .alreadyRecorded(RecordedOutcome(Fixtures.synced(cart), digest: nil)) }.count == Self.contenders - 1)
        }
    }

    /// Syncs and orders racing for one id: whichever type takes it first owns it; never do both act.
    @Test(arguments: TestDatabase.allCases)
    func syncsAndOrdersRacingForOneIdLeaveItToOneType(database: TestDatabase) async throws {
        try await database.withStore { store in
            let command = Fixtures.command()

            let results = try await Self.concurrently { index in
                if index.isMultiple(of: 2) {
                    switch try await store.syncCarts.record(Fixtures.syncRejected(), digest: nil, for: command) {
                    case .recorded: return "sync took it"
                    case .usedByAnotherCommand: return "sync refused"
                    case let other: return "sync: \(other)"
                    }
                }
                switch try await store.placeOrderCommands.claim(command, digest: nil, at: Fixtures.now, leaseUntil: Fixtures.now + 60) {
                case .claimed: return "order took it"
                case .conflicting: return "order refused"
                case let other: return "order: \(other)"
                }
            }

            // The others found the id taken: refused, or (a sync after a sync, an order after an order)
            // the same type's outcome or claim.
            #expect(results.filter { $0.hasSuffix("took it") }.count == 1, "\(results)")
            #expect(results.contains { $0.hasSuffix("refused") }, "\(results)")
        }
    }

    /// Runs `work` once per contender, all at once, and returns every result.
    static func concurrently<Result: Sendable>(_ work: @escaping @Sendable (Int) async throws -> Result) async throws -> [Result] {
        try await withThrowingTaskGroup(of: Result.self) { group in
            for index in 0..<contenders {
                group.addTask { try await work(index) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }
}
