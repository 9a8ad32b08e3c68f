import CheckoutDomain
import CheckoutTestSupport
import Foundation
import Testing

@testable import CheckoutPersistence

/// What the store writes itself is the same JSON as the types' `Codable` form that rows were written in
/// before, and reads back as the value it was written from.
@Suite struct StoredJSONTests {
    private static let cartWithEverything = cart(
        "cart-7", owner: "cust-9", version: 12, lines: [line("SKU-RED-M", 2), line("SKU-BLUE-L", 1, at: eur(5))],
        syncedAt: Date(timeIntervalSince1970: 1_750_000_000.123_456))
    private static let awkwardText = "a \"quoted\" line\nwith a tab\t, a slash /, a backslash \\, \u{1} and ünïcødé 🛒"

    @Test(arguments: [
        SyncCartOutcome.synced(
            cart: SyncedCart(
                cart: cartWithEverything,
                adjustments: [
                    Adjustment(sku: sku("SKU-RED-M"), reason: .clampedToStock, requested: 5, applied: 2),
                    Adjustment(sku: sku("SKU-GONE"), reason: .unknownSKU, requested: 1, applied: 0),
                ])),
        .synced(cart: SyncedCart(cart: cart(lines: [], isCheckedOut: true), adjustments: [])),
        .rejected(rejection: SyncCartRejection(cartID: "cart-7", reason: .versionConflict, message: awkwardText, currentVersion: 4)),
        .rejected(rejection: SyncCartRejection(cartID: "", reason: .invalidRequest, message: "", currentVersion: nil)),
    ])
    func aSyncOutcomeIsItsCodableForm(outcome: SyncCartOutcome) throws {
        try expectCodableForm(outcome)
    }

    @Test(arguments: [
        PlaceOrderOutcome.placed(order: order(from: cartWithEverything, by: commandID("order-1"), at: Date(timeIntervalSince1970: 0.5))),
        .rejected(
            rejection: PlaceOrderRejection(
                cartID: "cart-7", reason: .orderFailed, message: awkwardText, newTotal: eur(1234), skus: [sku("SKU-A"), sku("SKU-B")],
                declineCode: DeclineCode("insufficient_funds"), refundedPayment: Payment(id: PaymentID("pi_1"), amount: eur(1234)))),
        .rejected(rejection: PlaceOrderRejection(cartID: "cart-7", reason: .outOfStock, message: "gone", skus: [])),
    ])
    func anOrderOutcomeIsItsCodableForm(outcome: PlaceOrderOutcome) throws {
        try expectCodableForm(outcome)
    }

    @Test func cartLinesAreTheirCodableForm() throws {
        try expectCodableForm(Self.cartWithEverything.lines)
        try expectCodableForm([CartLine]())
    }

    /// Both texts parse to equal JSON values, and the store's reads back as `value`.
    private func expectCodableForm<Value: Codable & Equatable & StoredJSONWritable>(_ value: Value) throws {
        let stored = try StoredJSON.text(value)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let codable = try encoder.encode(value)

        let storedJSON = try JSONSerialization.jsonObject(with: Data(stored.utf8), options: .fragmentsAllowed) as? NSObject
        let codableJSON = try JSONSerialization.jsonObject(with: codable, options: .fragmentsAllowed) as? NSObject
        #expect(storedJSON == codableJSON, "\(stored) is not \(String(decoding: codable, as: UTF8.self))")
        #expect(try JSONDecoder().decode(Value.self, from: Data(stored.utf8)) == value)
    }
}
