import CheckoutDomain
import CheckoutPersistence
import Foundation
import Testing

/// The rules of ``PlaceOrderStore`` that every engine keeps: the claim is ``ProcessedCommands``'
/// (``ProcessedCommandsContractTests``), and the cart comes with it only when the command is claimed.
@Suite struct PlaceOrderStoreContractTests {
    private let now = Fixtures.now

    @Test(arguments: TestDatabase.allCases)
    func aClaimedCommandComesWithTheStoredCart(database: TestDatabase) async throws {
        try await database.withStore { store in
            let cart = Fixtures.cart(version: 2)
            _ = try await store.syncCarts.record(Fixtures.synced(Fixtures.cart(version: 1)), digest: nil, for: Fixtures.command())
            _ = try await store.syncCarts.record(Fixtures.synced(cart), digest: nil, for: Fixtures.command())

            let start = try await store.placeOrders.claim(Fixtures.command(), digest: nil, at: now, leaseUntil: now + 60, cart: cart.id)

            #expect(start == PlaceOrderClaim(claim: .claimed, cart: cart))
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func aClaimedCommandOfACartNeverSyncedComesWithNone(database: TestDatabase) async throws {
        try await database.withStore { store in
            let start = try await store.placeOrders.claim(
                Fixtures.command(), digest: nil, at: now, leaseUntil: now + 60, cart: CartID("never-synced"))

            #expect(start == PlaceOrderClaim(claim: .claimed, cart: nil))
        }
    }

    @Test(arguments: TestDatabase.allCases)
    func aCommandAnotherAttemptHoldsComesWithoutTheCart(database: TestDatabase) async throws {
        try await database.withStore { store in
            let cart = Fixtures.cart(version: 1)
            _ = try await store.syncCarts.record(Fixtures.synced(cart), digest: nil, for: Fixtures.command())
            let command = Fixtures.command()
            _ = try await store.placeOrders.claim(command, digest: nil, at: now, leaseUntil: now + 60, cart: cart.id)

            let start = try await store.placeOrders.claim(command, digest: nil, at: now + 1, leaseUntil: now + 61, cart: cart.id)

            #expect(start == PlaceOrderClaim(claim: .inProgress(until: now + 60), cart: nil))
        }
    }
}
