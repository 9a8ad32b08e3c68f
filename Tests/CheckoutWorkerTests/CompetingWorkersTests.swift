import CheckoutDomain
import CheckoutMessaging
import CheckoutPersistence
import CheckoutTestSupport
import Foundation
import RabbitMQ
import Testing

/// Several workers on the same queues and the same PostgreSQL database, as horizontal scaling runs them.
@Suite struct CompetingWorkersTests {
    @Test func twoWorkersShareTheQueuesAndActOnEveryCommandOnceEvenWhenItIsPublishedTwice() async throws {
        let world = try await TestWorld("competing")
        let database = try await TestDatabase.make(.postgres)
        let first = try await world.startWorker(["CHECKOUT_DATABASE_URL": database.url])
        let second = try await world.startWorker(["CHECKOUT_DATABASE_URL": database.url])

        let carts = 100
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<carts {
                group.addTask {
                    let body = Bodies.syncCart(cart: "cart-\(index)", items: [("SKU-BLUE-L", 1)])
                    // The same command id twice, at the same moment: one effect, two identical events.
                    try await world.send(.syncCart, body, messageID: "sync-\(index)")
                    try await world.send(.syncCart, body, messageID: "sync-\(index)")
                }
            }
            try await group.waitForAll()
        }
        let events = try await world.events.wait(for: 2 * carts, timeout: .seconds(30))
        try await first.stop()
        try await second.stop()

        // Both took their share of the queue, and together they took each delivery once: the only
        // deliveries beyond the commands sent are retries of a duplicate that found its twin in progress.
        let received = [first, second].map { $0.total(of: "checkout_commands_received_total") }
        let retried = [first, second].map { $0.total(of: "checkout_command_retries_total") }.reduce(0, +)
        #expect(received.allSatisfy { $0 > 0 }, "deliveries per worker: \(received)")
        #expect(received.reduce(0, +) == Double(2 * carts) + retried, "retries: \(retried)")

        for index in 0..<carts {
            let about = events.filter { $0.properties.correlationID == "sync-\(index)" }
            #expect(about.map(\.properties.messageID) == ["sync-\(index)/cart.synced", "sync-\(index)/cart.synced"], "cart-\(index)")
            #expect(about.allSatisfy { Bodies.json($0)["version"] as? Int == 1 })
        }
        let store = try await CheckoutStore.open(database.url, poolSize: 1, logger: TestWorld.logger)
        for index in 0..<carts {
            #expect(try await store.carts.cart(.init("cart-\(index)"))?.version == 1)
        }
        await store.close()
        #expect(world.deadLetters.all.isEmpty)
        await world.close()
        await database.drop()
    }
}
