import CheckoutDomain
import CheckoutMessaging
import Foundation

/// The traffic of a chaos run: many customers, each taking one cart through a journey chosen by the
/// cart's number, so a run can be repeated and every kind of journey occurs in every few dozen carts.
///
/// Journeys sync their cart and place an order, with variations: the same cart synced twice at once
/// (one `version-conflict`), synced again before the order, synced by a stranger (`forbidden`) or after
/// checkout (`cart-checked-out`); an order placed twice at once (a double click: one order), published
/// twice under one id (a client's retry: one effect), with a stale total (`price-changed`), a declined
/// card, or a gateway that times out after charging; commands that break a rule of form
/// (`invalid-request`); and a few messages that are not commands at all (dead letters). Stock of two
/// products is scarce, so orders race for the last items.
struct ChaosLoad: Sendable {
    struct Product: Sendable {
        let sku: String
        let price: Int64
        let stock: Int
        var isActive = true
    }

    /// Makes every id of the run unique to it.
    let runID: String

    init() {
        runID = String(UUID().uuidString.prefix(8).lowercased())
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
        var items = [(sku: "SKU-PLENTY", quantity: 1 + index % 3)]
        if index % 3 == 0 { items.append(("SKU-SCARCE", 1)) }
        if index % 5 == 0 { items.append(("SKU-LAST", 2)) }
        if index % 7 == 0 { items.append(("SKU-RETIRED", 1)) }
        if index % 17 == 0 { items.append(("SKU-GHOST", 1)) }
        return items
    }

    /// The items of a second sync: one more of the plentiful product.
    func changedItems(_ index: Int) -> [(sku: String, quantity: Int)] {
        var items = items(index)
        items[0].quantity += 1
        return items
    }

    func isContended(_ index: Int) -> Bool { index % 6 == 2 }
    func isSyncedTwice(_ index: Int) -> Bool { index % 4 == 1 }
    func isSyncedByStranger(_ index: Int) -> Bool { index % 19 == 3 }
    func hasInvalidSync(_ index: Int) -> Bool { index % 23 == 10 }
    func hasInvalidOrder(_ index: Int) -> Bool { index % 29 == 15 }
    func hasStaleTotal(_ index: Int) -> Bool { index % 31 == 20 }
    func isDoubleClicked(_ index: Int) -> Bool { index % 9 == 4 }
    func isPublishedTwice(_ index: Int) -> Bool { index % 13 == 6 }
    func isSyncedAfterOrder(_ index: Int) -> Bool { index % 11 == 8 }

    /// The payment token: a declined card now and then, and a gateway that charges and then times out.
    func token(_ index: Int) -> String {
        if index % 10 == 7 { return "tok_chargeDeclined" }
        if index % 8 == 5 { return "tok_timeoutAfterCharge" }
        return "tok_visa"
    }

    /// A message that is not a command, sent alongside cart `index`'s journey, or nil for most carts.
    func malformed(_ index: Int) -> MalformedMessage? {
        guard index % 40 == 25 else { return nil }
        return MalformedMessage(tag: "\(runID)-\(index)-malformed", variant: (index / 40) % MalformedMessage.Variant.allCases.count)
    }

    func syncCart(_ index: Int, step: String, baseVersion: Int, items: [(sku: String, quantity: Int)], customer: String? = nil) -> ChaosCommand {
        let lines = items.map { #"{"sku":"\#($0.sku)","quantity":\#($0.quantity)}"# }.joined(separator: ",")
        let body = #"{"cartId":"\#(cart(index))","customerId":"\#(customer ?? self.customer(index))","baseVersion":\#(baseVersion),"currency":"EUR","items":[\#(lines)]}"#
        return ChaosCommand(id: commandID(index, step), kind: .syncCart, cart: cart(index), body: body)
    }

    /// A sync that breaks a rule of form: a quantity of 0.
    func invalidSync(_ index: Int, baseVersion: Int) -> ChaosCommand {
        var command = syncCart(index, step: "sync-invalid", baseVersion: baseVersion, items: [("SKU-PLENTY", 0)])
        command.breaksRuleOfForm = true
        return command
    }

    func placeOrder(_ index: Int, step: String, cartVersion: Int, expectedTotal: Int64, currency: String = "EUR") -> ChaosCommand {
        let body = #"{"cartId":"\#(cart(index))","customerId":"\#(customer(index))","cartVersion":\#(cartVersion),"expectedTotal":\#(expectedTotal),"currency":"\#(currency)","payment":{"token":"\#(token(index))"}}"#
        return ChaosCommand(id: commandID(index, step), kind: .placeOrder, cart: cart(index), body: body)
    }

    /// An order that breaks a rule of form: a currency that is no ISO 4217 code.
    func invalidOrder(_ index: Int, cartVersion: Int, expectedTotal: Int64) -> ChaosCommand {
        var command = placeOrder(index, step: "place-invalid", cartVersion: cartVersion, expectedTotal: expectedTotal, currency: "EURO")
        command.breaksRuleOfForm = true
        return command
    }
}
