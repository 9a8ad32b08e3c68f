import CheckoutDomain
import CheckoutPersistence
import Foundation
import Testing

/// The rules of ``CartRepository`` that every engine keeps.
@Suite struct CartRepositoryContractTests {
    @Test(arguments: TestDatabase.allCases)
    func findsNoCartThatWasNeverSynced(database: TestDatabase) async throws {
        try await database.withStore { store in
            let cart = try await store.carts.cart(Fixtures.cartID())
            #expect(cart == nil)
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func storesANewCartAtVersionZeroAndReadsItBackUnchanged(database: TestDatabase) async throws {
        try await database.withStore { store in
            let cart = Fixtures.cart(version: 1, lines: [Fixtures.line("SKU-A", quantity: 2), Fixtures.line("SKU-B", quantity: 1, price: 250)])

            let result = try await store.carts.save(cart, replacing: 0, recording: Fixtures.synced(cart), for: Fixtures.command())

            #expect(result == .saved)
            #expect(try await store.carts.cart(cart.id) == cart)
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func replacesACartThatIsAtTheExpectedVersion(database: TestDatabase) async throws {
        try await database.withStore { store in
            let first = Fixtures.cart(version: 1)
            let second = Fixtures.cart(version: 2, lines: [Fixtures.line("SKU-B", quantity: 3)])
            _ = try await store.carts.save(first, replacing: 0, recording: Fixtures.synced(first), for: Fixtures.command())

            let result = try await store.carts.save(second, replacing: 1, recording: Fixtures.synced(second), for: Fixtures.command())

            #expect(result == .saved)
            #expect(try await store.carts.cart(second.id) == second)
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func rejectsASaveFromAnOldVersionWithTheCurrentVersionAndChangesNothing(database: TestDatabase) async throws {
        try await database.withStore { store in
            let stored = Fixtures.cart(version: 1)
            let stale = Fixtures.cart(version: 1, lines: [Fixtures.line("SKU-B")])
            let command = Fixtures.command()
            _ = try await store.carts.save(stored, replacing: 0, recording: Fixtures.synced(stored), for: Fixtures.command())

            let result = try await store.carts.save(stale, replacing: 0, recording: Fixtures.synced(stale), for: command)

            #expect(result == .versionConflict(currentVersion: 1))
            #expect(try await store.carts.cart(stored.id) == stored)
            #expect(try await store.syncCartCommands.claim(command, digest: nil, at: Fixtures.now, leaseUntil: Fixtures.now + 60) == .claimed)
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func neverReplacesACheckedOutCart(database: TestDatabase) async throws {
        try await database.withStore { store in
            let checkedOut = Fixtures.cart(version: 1, isCheckedOut: true)
            let resync = Fixtures.cart(version: 2)
            _ = try await store.carts.save(checkedOut, replacing: 0, recording: Fixtures.synced(checkedOut), for: Fixtures.command())

            let result = try await store.carts.save(resync, replacing: 1, recording: Fixtures.synced(resync), for: Fixtures.command())

            #expect(result == .versionConflict(currentVersion: 1))
            #expect(try await store.carts.cart(checkedOut.id) == checkedOut)
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func recordsTheCommandsOutcomeWithTheCart(database: TestDatabase) async throws {
        try await database.withStore { store in
            let cart = Fixtures.cart()
            let command = Fixtures.command()

            _ = try await store.carts.save(cart, replacing: 0, recording: Fixtures.synced(cart), for: command)

            #expect(try await store.syncCartCommands.claim(command, digest: nil, at: Fixtures.now, leaseUntil: Fixtures.now + 60) == .completed(Fixtures.synced(cart)))
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func aCommandWithAnOutcomeAlreadySavesNothingAndReportsThatOutcome(database: TestDatabase) async throws {
        try await database.withStore { store in
            let cart = Fixtures.cart()
            let command = Fixtures.command()
            _ = try await store.syncCartCommands.record(Fixtures.syncRejected("first"), for: command)

            let result = try await store.carts.save(cart, replacing: 0, recording: Fixtures.synced(cart), for: command)

            #expect(result == .commandAlreadyHandled(Fixtures.syncRejected("first")))
            #expect(try await store.carts.cart(cart.id) == nil)
        }
    }
}
