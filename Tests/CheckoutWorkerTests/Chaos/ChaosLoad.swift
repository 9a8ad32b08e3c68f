import CheckoutDomain
import CheckoutMessaging
import Foundation

/// The traffic of a chaos run: many customers, each taking one cart through a journey chosen by the
/// run's ``ChaosSeed`` and the cart's number, so a run can be repeated with its seed, and every kind
/// of journey occurs in every few dozen carts.
///
/// Journeys sync their cart and place an order, with variations: the same cart synced twice at once
/// (one `version-conflict`), synced again before the order, synced by a stranger (`forbidden`) or after
/// checkout (`cart-checked-out`); an order placed twice at once (a double click: one order), published
/// twice under one id (a client's retry: one effect), with a stale total (`price-changed`), a declined
/// card, or a gateway that times out after charging; commands that break a rule of form
/// (`invalid-request`); and a few messages that are not commands at all (dead letters). Stock of two
/// products is scarce, so orders race for the last items. Some commands carry hostile properties
/// (``HostileProperties``); some carts re-use an answered command's `message_id` with another body
/// (`duplicate-message-id`, never the other command's outcome); and some, as a real client after a
/// timeout, publish a command again under its id (the named client resend: an idempotent replay).
struct ChaosLoad: Sendable {
    struct Product: Sendable {
        let sku: String
        let price: Int64
        let stock: Int
        var isActive = true
    }

    /// Makes every id of the run unique to it.
    let runID: String
    let seed: ChaosSeed

    init(seed: ChaosSeed) {
        runID = String(UUID().uuidString.prefix(8).lowercased())
        self.seed = seed
    }

    /// What each seeded choice is for, so that no two choices use one roll.
    private enum Choice: UInt64 {
        case quantity = 1, scarce, last, retired, ghost, contended, syncedTwice, stranger, invalidSync, invalidOrder
        case staleTotal, doubleClick, publishedTwice, syncAfterOrder, declined, timeoutAfterCharge, malformed
        case malformedVariant, hostile, hostileVariant, reusedSyncID, reusedOrderID, resentAfterTimeout
    }

    private func oneIn(_ every: UInt64, _ choice: Choice, _ index: Int) -> Bool {
        seed.oneIn(every, choice.rawValue, index)
    }

    static let catalog: [Product] = [
        Product(sku: "SKU-PLENTY", price: 1000, stock: 1_000_000),
        Product(sku: "SKU-SCARCE", price: 2500, stock: 40),
        Product(sku: "SKU-LAST", price: 700, stock: 12),
        Product(sku: "SKU-RETIRED", price: 300, stock: 50, isActive: false),
    ]

    static var products: [CheckoutDomain.Product] {
        catalog.map {
            CheckoutDomain.Product(
                sku: try! SKU($0.sku), name: $0.sku,
                price: Money(minorUnits: $0.price, currency: try! CurrencyCode("EUR")),
                stock: $0.stock, isActive: $0.isActive
            )
        }
    }

    func cart(_ index: Int) -> String { "cart-\(runID)-\(index)" }
    func customer(_ index: Int) -> String { "cust-\(runID)-\(index)" }
    func commandID(_ index: Int, _ step: String) -> String { "\(runID)-\(index)-\(step)" }

    /// What cart `index` first holds: always some of a plentiful product, and by turns scarce ones,
    /// a retired one (dropped as `inactive-sku`) and an unknown one (dropped as `unknown-sku`).
    func items(_ index: Int) -> [(sku: String, quantity: Int)] {
        var items = [(sku: "SKU-PLENTY", quantity: 1 + Int(seed.roll(Choice.quantity.rawValue, index) % 3))]
        if oneIn(3, .scarce, index) { items.append(("SKU-SCARCE", 1)) }
        if oneIn(5, .last, index) { items.append(("SKU-LAST", 2)) }
        if oneIn(7, .retired, index) { items.append(("SKU-RETIRED", 1)) }
        if oneIn(17, .ghost, index) { items.append(("SKU-GHOST", 1)) }
        return items
    }

    /// The items of a second sync: one more of the plentiful product.
    func changedItems(_ index: Int) -> [(sku: String, quantity: Int)] {
        var items = items(index)
        items[0].quantity += 1
        return items
    }

    func isContended(_ index: Int) -> Bool { oneIn(6, .contended, index) }
    func isSyncedTwice(_ index: Int) -> Bool { oneIn(4, .syncedTwice, index) }
    func isSyncedByStranger(_ index: Int) -> Bool { oneIn(19, .stranger, index) }
    func hasInvalidSync(_ index: Int) -> Bool { oneIn(23, .invalidSync, index) }
    func hasInvalidOrder(_ index: Int) -> Bool { oneIn(29, .invalidOrder, index) }
    func hasStaleTotal(_ index: Int) -> Bool { oneIn(31, .staleTotal, index) }
    func isDoubleClicked(_ index: Int) -> Bool { oneIn(9, .doubleClick, index) }
    func isPublishedTwice(_ index: Int) -> Bool { oneIn(13, .publishedTwice, index) }
    func isSyncedAfterOrder(_ index: Int) -> Bool { oneIn(11, .syncAfterOrder, index) }
    /// After its first sync was answered, a sync of the cart with other items under that sync's `message_id`.
    func reusesSyncID(_ index: Int) -> Bool { oneIn(15, .reusedSyncID, index) }
    /// After its order was answered, an order with another total under that order's `message_id`.
    func reusesOrderID(_ index: Int) -> Bool { oneIn(15, .reusedOrderID, index) }
    /// The named client resend: the order is published again under its id when no answer came
    /// within a short timeout, as a real client does; its answers must be one replayed event.
    func isResentAfterTimeout(_ index: Int) -> Bool { oneIn(8, .resentAfterTimeout, index) }

    /// Hostile properties for the command `step` of cart `index`, on about one command in six.
    func hostile(_ index: Int, _ step: String) -> HostileProperties? {
        let salted = index &* 31 &+ step.utf8.reduce(0) { $0 &* 131 &+ Int($1) }
        guard oneIn(6, .hostile, salted) else { return nil }
        let cases = HostileProperties.allCases
        return cases[Int(seed.roll(Choice.hostileVariant.rawValue, salted) % UInt64(cases.count))]
    }

    /// The payment token: a declined card now and then, and a gateway that charges and then times out.
    func token(_ index: Int) -> String {
        if oneIn(10, .declined, index) { return "tok_chargeDeclined" }
        if oneIn(8, .timeoutAfterCharge, index) { return "tok_timeoutAfterCharge" }
        return "tok_visa"
    }

    /// A message that is not a command, sent alongside cart `index`'s journey, or nil for most carts.
    func malformed(_ index: Int) -> MalformedMessage? {
        guard oneIn(40, .malformed, index) else { return nil }
        let variant = Int(seed.roll(Choice.malformedVariant.rawValue, index) % UInt64(MalformedMessage.Variant.allCases.count))
        return MalformedMessage(tag: "\(runID)-\(index)-malformed", variant: variant)
    }

    func syncCart(
        _ index: Int, step: String, baseVersion: Int, items: [(sku: String, quantity: Int)], customer: String? = nil
    ) -> ChaosCommand {
        let lines = items.map { #"{"sku":"\#($0.sku)","quantity":\#($0.quantity)}"# }.joined(separator: ",")
        let body =
            #"{"cartId":"\#(cart(index))","customerId":"\#(customer ?? self.customer(index))","baseVersion":\#(baseVersion),"currency":"EUR","items":[\#(lines)]}"#
        var command = ChaosCommand(id: commandID(index, step), kind: .syncCart, cart: cart(index), body: body)
        command.hostile = hostile(index, step)
        return command
    }

    /// A sync that breaks a rule of form: a quantity of 0.
    func invalidSync(_ index: Int, baseVersion: Int) -> ChaosCommand {
        var command = syncCart(index, step: "sync-invalid", baseVersion: baseVersion, items: [("SKU-PLENTY", 0)])
        command.breaksRuleOfForm = true
        return command
    }

    func placeOrder(_ index: Int, step: String, cartVersion: Int, expectedTotal: Int64, currency: String = "EUR") -> ChaosCommand {
        let body =
            #"{"cartId":"\#(cart(index))","customerId":"\#(customer(index))","cartVersion":\#(cartVersion),"expectedTotal":\#(expectedTotal),"currency":"\#(currency)","payment":{"token":"\#(token(index))"}}"#
        var command = ChaosCommand(id: commandID(index, step), kind: .placeOrder, cart: cart(index), body: body)
        command.hostile = hostile(index, step)
        return command
    }

    /// An order that breaks a rule of form: a currency that is no ISO 4217 code.
    func invalidOrder(_ index: Int, cartVersion: Int, expectedTotal: Int64) -> ChaosCommand {
        var command = placeOrder(index, step: "place-invalid", cartVersion: cartVersion, expectedTotal: expectedTotal, currency: "EURO")
        command.breaksRuleOfForm = true
        return command
    }
}
