import CheckoutDomain
import CheckoutPersistence
import CheckoutTestSupport
import Foundation
import Testing

/// The rules of ``OrderRepository`` that every engine keeps: all or nothing, never oversold.
@Suite struct OrderRepositoryContractTests {
    @Test(arguments: TestDatabase.allCases)
    func storesTheOrderTakesTheStockChecksOutTheCartAndRecordsTheOutcome(database: TestDatabase) async throws {
        try await database.withStore { store in
            let cart = try await Self.stock(
                store, cart: Fixtures.cart(lines: [Fixtures.line("SKU-A", quantity: 2), Fixtures.line("SKU-B")]))
            let command = Fixtures.command()
            let order = Fixtures.order(for: cart, by: command)

            let result = try await store.orders.place(order, fromCartVersion: 1, recording: .placed(order: order), for: command)

            #expect(result == .placed)
            #expect(try await store.orders(forCart: cart.id) == [order])
            #expect(
                try await store.catalog.products([sku("SKU-A"), sku("SKU-B")]).mapValues(\.stock)
                    == [sku("SKU-A"): 3, sku("SKU-B"): 4])
            #expect(try await store.carts.cart(cart.id)?.isCheckedOut == true)
            #expect(
                try await store.placeOrderCommands.claim(command, digest: nil, at: Fixtures.now, leaseUntil: Fixtures.now + 60)
                    == .completed(.placed(order: order)))
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func reportsEverySKUThatIsShortAndChangesNothing(database: TestDatabase) async throws {
        try await database.withStore { store in
            let cart = try await Self.stock(
                store,
                cart: Fixtures.cart(lines: [
                    Fixtures.line("SKU-C", quantity: 6), Fixtures.line("SKU-A", quantity: 5), Fixtures.line("SKU-B", quantity: 9),
                ]))
            let command = Fixtures.command()
            let order = Fixtures.order(for: cart, by: command)

            let result = try await store.orders.place(order, fromCartVersion: 1, recording: .placed(order: order), for: command)

            #expect(result == .outOfStock([sku("SKU-C"), sku("SKU-B")]))
            try await Self.expectNothingChanged(store, cart: cart, command: command)
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func reportsAnUnknownSKUAsOutOfStock(database: TestDatabase) async throws {
        try await database.withStore { store in
            let cart = try await Self.stock(store, cart: Fixtures.cart(lines: [Fixtures.line("SKU-GONE")]))
            let command = Fixtures.command()
            let order = Fixtures.order(for: cart, by: command)

            let result = try await store.orders.place(order, fromCartVersion: 1, recording: .placed(order: order), for: command)

            #expect(result == .outOfStock([sku("SKU-GONE")]))
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func reportsACartThatMovedOnAndChangesNothing(database: TestDatabase) async throws {
        try await database.withStore { store in
            let cart = try await Self.stock(store, cart: Fixtures.cart())
            let command = Fixtures.command()
            let order = Fixtures.order(for: cart, by: command)

            let result = try await store.orders.place(order, fromCartVersion: 2, recording: .placed(order: order), for: command)

            #expect(result == .cartChanged)
            try await Self.expectNothingChanged(store, cart: cart, command: command)
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func reportsACheckedOutCartAsChanged(database: TestDatabase) async throws {
        try await database.withStore { store in
            let cart = try await Self.stock(store, cart: Fixtures.cart())
            let first = Fixtures.command()
            let second = Fixtures.command()
            _ = try await store.orders.place(
                Fixtures.order(for: cart, by: first), fromCartVersion: 1, recording: Fixtures.placeRejected(), for: first)

            let result = try await store.orders.place(
                Fixtures.order(for: cart, by: second), fromCartVersion: 1, recording: Fixtures.placeRejected(), for: second)

            #expect(result == .cartChanged)
            #expect(try await store.orders(forCart: cart.id).count == 1)
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func aCommandWithAnOutcomeAlreadyPlacesNothingAndReportsThatOutcome(database: TestDatabase) async throws {
        try await database.withStore { store in
            let cart = try await Self.stock(store, cart: Fixtures.cart())
            let command = Fixtures.command()
            let order = Fixtures.order(for: cart, by: command)
            _ = try await store.placeOrderCommands.record(Fixtures.placeRejected("first"), for: command)

            let result = try await store.orders.place(order, fromCartVersion: 1, recording: .placed(order: order), for: command)

            #expect(result == .commandAlreadyHandled(Fixtures.placeRejected("first")))
            #expect(try await store.orders(forCart: cart.id).isEmpty)
            #expect(try await store.carts.cart(cart.id)?.isCheckedOut == false)
        }
    }

    /// A failure after some of the transaction's writes (here the order row, whose id is taken) must
    /// leave no trace: no stock taken, no cart checked out, no outcome.
    @Test(arguments: TestDatabase.allCases)
    func aFailureHalfwayLeavesNoHalfWrittenOrder(database: TestDatabase) async throws {
        try await database.withStore { store in
            let firstCart = try await Self.stock(store, cart: Fixtures.cart(cartID("cart-1")))
            let secondCart = try await Self.stock(
                store, cart: Fixtures.cart(cartID("cart-2"), lines: [Fixtures.line("SKU-B")]), importing: false)
            let first = Fixtures.command()
            let second = Fixtures.command()
            let firstOrder = Fixtures.order(for: firstCart, by: first)
            _ = try await store.orders.place(firstOrder, fromCartVersion: 1, recording: .placed(order: firstOrder), for: first)
            let clash = Fixtures.order(for: secondCart, by: first)

            await #expect(throws: PersistenceError.self) {
                try await store.orders.place(clash, fromCartVersion: 1, recording: .placed(order: clash), for: second)
            }

            try await Self.expectNothingChanged(store, cart: secondCart, command: second, stock: [sku("SKU-B"): 5])
        }
    }

    /// On PostgreSQL orders that arrive together are placed in one statement; each is answered as it
    /// would be alone: orders over plenty of stock placed, more orders than units of a SKU (the last
    /// units go to one order each, the others are short), a cart that moved on, a command with an
    /// outcome, and an order whose id is taken (which fails, and fails no other).
    @Test(arguments: TestDatabase.allCases)
    func ordersThatArriveTogetherAreEachAnsweredAsIfAlone(database: TestDatabase) async throws {
        try await database.withStore { store in
            _ = try await store.importCatalog([Fixtures.product("SKU-A", stock: 100), Fixtures.product("SKU-B", stock: 5)])
            let plenty = (0..<12).map { Fixtures.cart(cartID("cart-plenty-\($0)"), lines: [Fixtures.line("SKU-A", quantity: 2)]) }
            let scarce = (0..<8).map {
                Fixtures.cart(cartID("cart-scarce-\($0)"), lines: [Fixtures.line("SKU-B"), Fixtures.line("SKU-A")])
            }
            let movedOn = Fixtures.cart(cartID("cart-moved-on"), lines: [Fixtures.line("SKU-A")])
            let handled = Fixtures.cart(cartID("cart-handled"), lines: [Fixtures.line("SKU-A")])
            let first = Fixtures.cart(cartID("cart-first"), lines: [Fixtures.line("SKU-A")])
            let clashing = Fixtures.cart(cartID("cart-clashing"), lines: [Fixtures.line("SKU-A")])
            for cart in plenty + scarce + [movedOn, handled, first, clashing] {
                _ = try await store.syncCarts.record(Fixtures.synced(cart), digest: nil, for: Fixtures.command())
            }
            let handledCommand = Fixtures.command()
            _ = try await store.placeOrderCommands.record(Fixtures.placeRejected("first"), for: handledCommand)
            let firstCommand = Fixtures.command()
            let firstOrder = Fixtures.order(for: first, by: firstCommand)
            _ = try await store.orders.place(firstOrder, fromCartVersion: 1, recording: .placed(order: firstOrder), for: firstCommand)
            var placements = (plenty + scarce + [movedOn, handled]).map { cart in
                let command = cart == handled ? handledCommand : Fixtures.command()
                return (order: Fixtures.order(for: cart, by: command), version: cart == movedOn ? 2 : 1, command: command)
            }
            placements.append((Fixtures.order(for: clashing, by: firstCommand), 1, Fixtures.command()))

            let results = await withTaskGroup(of: (Int, Result<OrderPlacementResult, any Error>).self) { group in
                for (index, placement) in placements.enumerated() {
                    group.addTask {
                        do {
                            let result = try await store.orders.place(
                                placement.order, fromCartVersion: placement.version, recording: .placed(order: placement.order),
                                for: placement.command)
                            return (index, .success(result))
                        } catch {
                            return (index, .failure(error))
                        }
                    }
                }
                var results = [Result<OrderPlacementResult, any Error>?](repeating: nil, count: placements.count)
                for await (index, result) in group { results[index] = result }
                return results.map { $0! }
            }

            for index in plenty.indices { #expect(try results[index].get() == .placed) }
            let scarceResults = try results[plenty.count..<(plenty.count + scarce.count)].map { try $0.get() }
            #expect(scarceResults.filter { $0 == .placed }.count == 5)
            #expect(scarceResults.filter { $0 == .outOfStock([sku("SKU-B")]) }.count == 3)
            #expect(try results[20].get() == .cartChanged)
            #expect(try results[21].get() == .commandAlreadyHandled(Fixtures.placeRejected("first")))
            #expect(throws: PersistenceError.self) { try results[22].get() }
            #expect(
                try await store.catalog.products([sku("SKU-A"), sku("SKU-B")]).mapValues(\.stock)
                    == [sku("SKU-A"): 100 - 1 - 24 - 5, sku("SKU-B"): 0])
            for (cart, result) in zip(scarce, scarceResults) {
                #expect(try await store.carts.cart(cart.id)?.isCheckedOut == (result == .placed))
                #expect(try await store.orders(forCart: cart.id).count == (result == .placed ? 1 : 0))
            }
            for cart in [movedOn, handled, clashing] {
                #expect(try await store.carts.cart(cart.id)?.isCheckedOut == false)
                #expect(try await store.orders(forCart: cart.id).isEmpty)
            }
        }
    }

    @Test func ordersThatArriveTogetherShareStatementsOnPostgreSQL() async throws {
        try await TestDatabase.postgres.withStore { store in
            let carts = try await Fixtures.seedCartsOfOneSKU(40, named: "cart-shared", stock: 100, in: store)
            let before = store.statistics.roundTrips

            try await withThrowingTaskGroup(of: Void.self) { group in
                for cart in carts {
                    group.addTask {
                        let command = Fixtures.command()
                        let order = Fixtures.order(for: cart, by: command)
                        let result = try await store.orders.place(order, fromCartVersion: 1, recording: .placed(order: order), for: command)
                        #expect(result == .placed)
                    }
                }
                try await group.waitForAll()
            }

            let statements = store.statistics.roundTrips - before
            #expect(statements < carts.count, "\(statements) statements for \(carts.count) orders; alone, each is one")
        }
    }

    /// Stores `cart` at version 1 and stocks five of SKU-A, SKU-B and SKU-C.
    static func stock(_ store: CheckoutStore, cart: Cart, importing: Bool = true) async throws -> Cart {
        if importing {
            _ = try await store.importCatalog(["SKU-A", "SKU-B", "SKU-C"].map { Fixtures.product($0, stock: 5) })
        }
        _ = try await store.syncCarts.record(Fixtures.synced(cart), digest: nil, for: Fixtures.command())
        return cart
    }

    static func expectNothingChanged(
        _ store: CheckoutStore,
        cart: Cart,
        command: CommandID,
        stock: [SKU: Int] = [sku("SKU-A"): 5, sku("SKU-B"): 5, sku("SKU-C"): 5]
    ) async throws {
        #expect(try await store.orders(forCart: cart.id).isEmpty)
        #expect(try await store.carts.cart(cart.id)?.isCheckedOut == false)
        #expect(try await store.catalog.products(Set(stock.keys)).mapValues(\.stock) == stock)
        #expect(try await store.placeOrderCommands.claim(command, digest: nil, at: Fixtures.now, leaseUntil: Fixtures.now + 60) == .claimed)
    }
}
