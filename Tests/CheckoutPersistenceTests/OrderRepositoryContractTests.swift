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
