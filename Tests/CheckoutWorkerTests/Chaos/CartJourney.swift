/// One customer's way through checkout in a chaos run, as a shop's front end drives it: each
/// command waits for the previous one's answer, and the next one uses what it said (the cart's
/// version, its subtotal). Which variations a cart goes through is ``ChaosLoad``'s choice.
struct CartJourney {
    let load: ChaosLoad
    let index: Int
    let client: ChaosClient

    private struct SyncedCart {
        let version: Int
        let subtotal: Int64

        init?(_ answer: ObservedEvent?) {
            guard let answer, answer.type == "cart.synced",
                let version = answer.json["version"] as? Int, let subtotal = answer.json["subtotal"] as? Int
            else { return nil }
            self.version = version
            self.subtotal = Int64(subtotal)
        }
    }

    func run() async throws {
        if let malformed = load.malformed(index) {
            try await client.publish(malformed)
        }
        guard var cart = try await firstSync() else { return }
        if load.reusesSyncID(index) {
            // Another body under the first sync's id, after it was answered: `duplicate-message-id`.
            let first = load.syncCart(index, step: "sync-1", baseVersion: 0, items: load.items(index))
            let other = load.syncCart(index, step: "sync-reused-id", baseVersion: cart.version, items: load.changedItems(index))
            _ = try await client.ask(other.reusing(idOf: first))
        }
        if load.isSyncedByStranger(index) {
            let stranger = "stranger-\(load.runID)-\(index)"
            _ = try await client.ask(
                load.syncCart(index, step: "sync-stranger", baseVersion: cart.version, items: load.items(index), customer: stranger))
        }
        if load.hasInvalidSync(index) {
            _ = try await client.ask(load.invalidSync(index, baseVersion: cart.version))
        }
        if load.isSyncedTwice(index),
            let synced = SyncedCart(
                try await client.ask(load.syncCart(index, step: "sync-2", baseVersion: cart.version, items: load.changedItems(index))))
        {
            cart = synced
        }
        if load.hasInvalidOrder(index) {
            _ = try await client.ask(load.invalidOrder(index, cartVersion: cart.version, expectedTotal: cart.subtotal))
        }
        let order = try await placeOrder(cart)
        if load.reusesOrderID(index) {
            // Another total under the order's id, after it was answered: `duplicate-message-id`, never a second charge.
            let other = load.placeOrder(index, step: "place-reused-id", cartVersion: cart.version, expectedTotal: cart.subtotal + 100)
            _ = try await client.ask(other.reusing(idOf: order))
            // A sync under the order's id: ids are one space whatever the command's type.
            let sync = load.syncCart(index, step: "sync-reused-order-id", baseVersion: cart.version, items: load.items(index))
            _ = try await client.ask(sync.reusing(idOf: order))
        }
        if load.isSyncedAfterOrder(index) {
            _ = try await client.ask(load.syncCart(index, step: "sync-after", baseVersion: cart.version, items: load.items(index)))
        }
    }

    /// Creates the cart; a contended cart is created by two syncs at once, of which one wins.
    private func firstSync() async throws -> SyncedCart? {
        let first = load.syncCart(index, step: "sync-1", baseVersion: 0, items: load.items(index))
        guard load.isContended(index) else {
            return SyncedCart(try await client.ask(first))
        }
        let rival = load.syncCart(index, step: "sync-1-rival", baseVersion: 0, items: load.changedItems(index))
        async let firstAnswer = client.ask(first)
        async let rivalAnswer = client.ask(rival)
        let answers = try await [firstAnswer, rivalAnswer]
        return answers.lazy.compactMap(SyncedCart.init).first
    }

    /// Places the order (the command that goes first, when there are two).
    private func placeOrder(_ cart: SyncedCart) async throws -> ChaosCommand {
        let total = cart.subtotal + (load.hasStaleTotal(index) ? 1 : 0)
        let order = load.placeOrder(index, step: "place", cartVersion: cart.version, expectedTotal: total)
        if load.isDoubleClicked(index) {
            let again = load.placeOrder(index, step: "place-again", cartVersion: cart.version, expectedTotal: total)
            async let firstAnswer = client.ask(order)
            async let secondAnswer = client.ask(again)
            _ = try await (firstAnswer, secondAnswer)
        } else if load.isResentAfterTimeout(index) {
            _ = try await client.askResendingAfterTimeout(order)
        } else {
            if load.isPublishedTwice(index) {
                try await client.publish(order)
            }
            _ = try await client.ask(order)
        }
        return order
    }
}
