import CheckoutDomain
import CheckoutPersistence
import CheckoutTestSupport
import Foundation

extension CheckoutStore {
    /// Stores `cart` through the ports, as its owner's commands would have left it: synced once per
    /// version from the stored one up to its own, then, if it is checked out, ordered with an order of
    /// no lines, which takes no stock.
    func seed(_ cart: Cart) async throws {
        let stored = try await carts.cart(cart.id)?.version ?? 0
        for version in stride(from: stored + 1, through: cart.version, by: 1) {
            let synced = try Cart(
                id: cart.id, customerID: cart.customerID, version: version, currency: cart.currency,
                lines: cart.lines, isCheckedOut: false, syncedAt: cart.syncedAt
            )
            let command = try CommandID("seed-\(cart.id)-v\(version)")
            let outcome = SyncCartOutcome.synced(cart: SyncedCart(cart: synced, adjustments: []))
            let result = try await syncCarts.record(outcome, digest: nil, for: command)
            guard result == .recorded(outcome) else { throw SeedingFailed("syncing \(cart.id) to version \(version): \(result)") }
        }
        if cart.isCheckedOut {
            try await checkOut(cart)
        }
    }

    /// Checks `cart`, which is stored at its version, out by placing an order of no lines from it.
    func checkOut(_ cart: Cart) async throws {
        let command = try CommandID("seed-\(cart.id)-order")
        let nothing = Money(minorUnits: 0, currency: cart.currency)
        let order = Order(
            id: OrderID(placedBy: command), cartID: cart.id, customerID: cart.customerID, lines: [], total: nothing,
            payment: Payment(id: PaymentID("pay_\(command)"), amount: nothing), placedAt: cart.syncedAt
        )
        let result = try await orders.place(order, fromCartVersion: cart.version, recording: .placed(order: order), for: command)
        guard result == .placed else { throw SeedingFailed("checking \(cart.id) out: \(result)") }
    }

    /// The stock the catalog has of `code`, nil if it has no such product.
    func stock(of code: String) async throws -> Int? {
        try await catalog.products([sku(code)])[sku(code)]?.stock
    }
}

/// Thrown when the store refused a state a test set up through its ports.
struct SeedingFailed: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
