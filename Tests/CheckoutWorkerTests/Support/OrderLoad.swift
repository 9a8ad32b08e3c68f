import CheckoutMessaging
import Foundation
import RabbitMQ
import Testing

/// A few hundred customers checking out at once against scarce stock, and what the database must
/// look like at any moment of it: the yardstick of the signal and crash tests.
///
/// Cart `i` holds one `SKU-A`, and every third cart also two `SKU-B`; there is stock for three
/// quarters of the A's and under a third of the B's, so orders race for the last items and some
/// are rejected as out of stock.
struct OrderLoad {
    let count: Int

    struct Item {
        let sku: String
        let price: Int
        let stock: Int
    }

    var catalog: [Item] {
        [Item(sku: "SKU-A", price: 1000, stock: count * 3 / 4), Item(sku: "SKU-B", price: 250, stock: count / 5)]
    }

    /// The catalog as `checkout-worker catalog import` reads it.
    var catalogFile: String {
        let rows = catalog.map {
            #"{"sku":"\#($0.sku)","name":"\#($0.sku)","unitPrice":\#($0.price),"currency":"EUR","stock":\#($0.stock),"active":true}"#
        }
        return "[\(rows.joined(separator: ","))]"
    }

    func cart(_ index: Int) -> String { "cart-\(index)" }
    func syncCommand(_ index: Int) -> String { "sync-\(index)" }
    func placeCommand(_ index: Int) -> String { "place-\(index)" }

    func items(_ index: Int) -> [(String, Int)] {
        index % 3 == 0 ? [("SKU-A", 1), ("SKU-B", 2)] : [("SKU-A", 1)]
    }

    func total(_ index: Int) -> Int {
        items(index).reduce(0) { sum, item in sum + item.1 * (catalog.first { $0.sku == item.0 }?.price ?? 0) }
    }

    /// Starts a worker on the catalog, syncs every cart and publishes every order; returns the worker once
    /// 30 orders are answered, with the rest in flight or queued, for a test to stop it mid-load.
    func startWorkerMidLoad(in world: ProcessWorld) async throws -> WorkerProcess {
        try await world.importCatalog(catalogFile)
        let worker = try await world.startWorker()
        try await syncCarts(in: world)
        try await placeOrders(in: world)
        try await world.events.wait(for: 30, timeout: .seconds(60)) { $0.properties.type?.hasPrefix("order.") == true }
        return worker
    }

    /// After the first worker stopped mid-load: a second one answers every order and stops cleanly, and
    /// the store shows every order placed once.
    func finishWithASecondWorker(in world: ProcessWorld, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let second = try await world.startWorker()
        try await waitForEveryOrderEvent(in: world)
        second.terminate()
        #expect(try await second.waitForExit(timeout: .seconds(15)) == 0, "\(second.standardError)", sourceLocation: sourceLocation)
        expectFinished(try await world.database.snapshot(), events: world.events.all, sourceLocation: sourceLocation)
    }

    /// Syncs every cart and waits until each is answered with `cart.synced`.
    func syncCarts(in world: ProcessWorld) async throws {
        try await world.send(
            .syncCart,
            (0..<count).map {
                (syncCommand($0), Bodies.syncCart(cart: cart($0), customer: "cust-\($0)", items: items($0)))
            })
        let synced = try await world.events.wait(for: count, timeout: .seconds(60)) { $0.properties.type == "cart.synced" }
        #expect(Set(synced.compactMap(\.properties.correlationID)).count == count)
    }

    /// Publishes every `order.place` command, without waiting for any result.
    func placeOrders(in world: ProcessWorld) async throws {
        try await world.send(
            .placeOrder,
            (0..<count).map {
                (placeCommand($0), Bodies.placeOrder(cart: cart($0), customer: "cust-\($0)", cartVersion: 1, expectedTotal: total($0)))
            })
    }

    /// The events answering `order.place` commands so far.
    func orderEvents(in world: ProcessWorld) -> [AMQPDelivery] {
        world.events.all.filter { $0.properties.type?.hasPrefix("order.") == true }
    }

    /// Waits until every `order.place` command has been answered.
    func waitForEveryOrderEvent(in world: ProcessWorld, timeout: Duration = .seconds(60)) async throws {
        let deadline = ContinuousClock.now + timeout
        while Set(orderEvents(in: world).compactMap(\.properties.correlationID)).count < count {
            guard ContinuousClock.now < deadline else {
                let answered = Set(orderEvents(in: world).compactMap(\.properties.correlationID))
                let missing = (0..<count).map(placeCommand).filter { !answered.contains($0) }
                Issue.record("\(missing.count) order.place commands unanswered after \(timeout): \(missing.prefix(10))…")
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// What must hold at any moment, even right after a SIGKILL: every order complete with its
    /// cart's lines, at most one order per cart, and stock = start − what the orders took, never negative.
    func expectConsistent(_ snapshot: StoreSnapshot, sourceLocation: SourceLocation = #_sourceLocation) {
        let linesOfCart = Dictionary(uniqueKeysWithValues: (0..<count).map { (cart($0), items($0).count) })
        for (order, cart) in snapshot.cartOfOrder where snapshot.linesOfOrder[order] != linesOfCart[cart] {
            Issue.record(
                "order \(order) of \(cart) has \(snapshot.linesOfOrder[order] ?? 0) lines, its cart had \(linesOfCart[cart] ?? 0)",
                sourceLocation: sourceLocation)
        }
        for order in snapshot.linesOfOrder.keys where snapshot.cartOfOrder[order] == nil {
            Issue.record("order lines of \(order) without their order", sourceLocation: sourceLocation)
        }
        for (cart, orders) in Dictionary(grouping: snapshot.cartOfOrder.values, by: { $0 }) where orders.count > 1 {
            Issue.record("\(orders.count) orders from \(cart)", sourceLocation: sourceLocation)
        }
        for item in catalog {
            let stock = snapshot.stock[item.sku]
            #expect(stock == item.stock - (snapshot.orderedQuantity[item.sku] ?? 0), "stock of \(item.sku)", sourceLocation: sourceLocation)
            #expect((stock ?? -1) >= 0, "stock of \(item.sku)", sourceLocation: sourceLocation)
        }
    }

    /// What must hold once every command was answered: one outcome per command, nothing left
    /// claimed, an order for each `order.placed` and none for a rejection, and each command's events
    /// all one event (repeats of a redelivery carry the same `message_id`).
    func expectFinished(_ snapshot: StoreSnapshot, events: [AMQPDelivery], sourceLocation: SourceLocation = #_sourceLocation) {
        expectConsistent(snapshot, sourceLocation: sourceLocation)
        #expect(snapshot.handledCommands["place-order"] == count, sourceLocation: sourceLocation)
        #expect(snapshot.unfinishedClaims == 0, sourceLocation: sourceLocation)
        let ordersOfCart = Set(snapshot.cartOfOrder.values)
        for index in 0..<count {
            let answers = events.filter { $0.properties.correlationID == placeCommand(index) }
            let ids = Set(answers.compactMap(\.properties.messageID))
            guard ids.count == 1, let answer = answers.first else {
                Issue.record("\(placeCommand(index)) was answered with \(ids.sorted())", sourceLocation: sourceLocation)
                continue
            }
            switch answer.properties.type {
            case "order.placed":
                #expect(
                    ordersOfCart.contains(cart(index)), "\(placeCommand(index)) placed an order that is not stored",
                    sourceLocation: sourceLocation)
            default:
                let reason = Bodies.json(answer)["reason"] as? String
                #expect(
                    ["out-of-stock", "order-failed"].contains(reason), "\(placeCommand(index)) rejected: \(reason ?? "-")",
                    sourceLocation: sourceLocation)
                #expect(
                    !ordersOfCart.contains(cart(index)), "\(placeCommand(index)) was rejected but its order is stored",
                    sourceLocation: sourceLocation)
            }
        }
    }
}
