import CheckoutDomain
import CheckoutPersistence
import CheckoutTestSupport
import Foundation
import Synchronization
import Testing

/// The store over PostgreSQL across a few seconds in which the database is unreachable (every
/// connection cut, new ones refused, through a ``TCPProxy``): what the chaos suite does to the
/// workers, on one store, so that a failure points at the store and not at the messaging around it.
///
/// Every call made during the outage must end, with a result or an error the worker can retry; a
/// call that never returns holds its command (and its pooled connection) forever. The outage itself
/// is confirmed: the proxy closed open connections and refused new ones, and calls failed meanwhile.
@Suite(.timeLimit(.minutes(1)))
struct DatabaseOutageTests {
    @Test func everyStoreCallEndsAndTheStoreAnswersAgainAfterTheDatabaseWasUnreachable() async throws {
        try await withStoreBehindProxy { store, proxy in
            _ = try await store.importCatalog(ChaosLoad.products)
            let skus = Set(ChaosLoad.products.map(\.sku))
            // Writes (transactions) and reads keep every pooled connection busy when the cut comes.
            let failures = FailureCount()
            let (stuck, outage) = try await withThrowingTaskGroup(of: String?.self) { group in
                for task in 0..<16 {
                    group.addTask {
                        let end = ContinuousClock.now + .seconds(6)
                        while ContinuousClock.now < end {
                            do {
                                try await Deadline.run("a store call", within: .seconds(15)) {
                                    if task % 2 == 0 {
                                        _ = try await store.catalog.products(skus)
                                    } else {
                                        _ = try await store.importCatalog(ChaosLoad.products)
                                    }
                                }
                            } catch let error as Deadline.Exceeded {
                                return "\(task % 2 == 0 ? "a read" : "a write"): \(error)"
                            } catch {
                                // The database is away: an error the worker retries, as it should be.
                                failures.count.withLock { $0 += 1 }
                            }
                        }
                        return nil
                    }
                }
                try await Task.sleep(for: .milliseconds(500))
                let outage = try await proxy.outage(for: .seconds(4))
                return (try await group.reduce(into: [String]()) { stuck, call in call.map { stuck.append($0) } }, outage)
            }
            // Whether a new connection is tried within the window depends on timing; the cut itself does not.
            #expect(outage.closed > 0, "the cut closed the pool's open connections")
            #expect(failures.count.withLock { $0 } > 0, "store calls failed while the database was unreachable")
            #expect(stuck.isEmpty, "\(stuck.count) store calls made as the connections were cut never returned: \(stuck)")
            let products = try await Deadline.run("reading the catalog after the outage", within: .seconds(10)) {
                try await store.catalog.products(skus)
            }
            #expect(products.count == skus.count)
        }
    }

    /// An attempt that fails while the database is away cannot release its claim either; the command's
    /// next delivery to the same worker takes the claim over at once instead of waiting out its lease,
    /// which would hold the customer's answer for minutes after a blip.
    @Test func theNextAttemptOfAWorkerTakesOverTheClaimItsFailedAttemptCouldNotRelease() async throws {
        try await withStoreBehindProxy { store, proxy in
            let command = try CommandID("outage-\(UUID().uuidString)")
            let now = Date()
            #expect(try await store.placeOrderCommands.claim(command, digest: nil, at: now, leaseUntil: now + 600) == .claimed)

            #expect(proxy.cut() > 0, "the cut closed the store's connection")
            // Time for the pool to see its connection closed: the release then gets none at all.
            try await Task.sleep(for: .milliseconds(500))
            await #expect(throws: (any Error).self, "the release fails while the database is unreachable") {
                try await Deadline.run("releasing the claim", within: .seconds(15)) { try await store.placeOrderCommands.release(command) }
            }
            proxy.restore()

            let claim = try await Deadline.run("claiming again after the outage", within: .seconds(15)) {
                try await store.placeOrderCommands.claim(command, digest: nil, at: now + 1, leaseUntil: now + 601)
            }
            #expect(claim == .claimed)
        }
    }

    /// A store over a scratch PostgreSQL database reached through a ``TCPProxy`` the test can cut.
    private func withStoreBehindProxy(_ body: (CheckoutStore, TCPProxy) async throws -> Void) async throws {
        let database = try await TestDatabase.make(.postgres)
        let (proxy, proxiedURL) = try await TCPProxy.start(inFrontOf: database.url)
        do {
            let store = try await CheckoutStore.open(proxiedURL, poolSize: 4, logger: TestWorld.logger)
            do {
                try await body(store, proxy)
            } catch {
                await store.close()
                throw error
            }
            await store.close()
        } catch {
            try? await proxy.shutdown()
            await database.drop()
            throw error
        }
        try await proxy.shutdown()
        await database.drop()
    }
}

/// The store calls that failed, counted across the tasks of ``DatabaseOutageTests``.
private final class FailureCount: Sendable {
    let count = Mutex(0)
}
