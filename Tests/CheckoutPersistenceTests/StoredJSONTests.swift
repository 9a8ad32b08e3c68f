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

    @Test(arguments: [
        ChargeRecord.requested(at: Date(timeIntervalSince1970: 1_750_000_000.123_456)),
        .requested(at: Date(timeIntervalSinceReferenceDate: 0)),
        .approved(Payment(id: PaymentID("pi_3Q"), amount: eur(5998))),
    ])
    func aChargeIsItsCodableForm(charge: ChargeRecord) throws {
        try expectCodableForm(charge)
    }

    @Test func cartLinesAreTheirCodableForm() throws {
        try expectCodableForm(Self.cartWithEverything.lines)
        try expectCodableForm([CartLine]())
    }

    /// Lines stored through `JSONEncoder`, as rows were before the store wrote its own JSON, and lines
    /// in any key order, spacing or with keys of no use, read as `JSONDecoder` reads them.
    @Test func cartLinesReadAsJSONDecoderReadsThem() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var texts = [
            #"[ {"unitPrice": {"minorUnits": 250, "currency": "EUR"}, "sku": "SKU\u002DA", "quantity": 3, "#
                + #""lineTotal": {"currency": "EUR", "minorUnits": 750}, "note": "ignored"} ]"#,
            Self.storedLine(quantity: "3.0", unitPrice: "2.5e2", lineTotal: "7500e-1"),
        ]
        for lines in [Self.cartWithEverything.lines, [], [try CartLine(sku: sku("SKU-X"), quantity: 99, unitPrice: eur(Int64.max / 100))]] {
            texts.append(try StoredJSON.text(lines))
            texts.append(String(decoding: try encoder.encode(lines), as: UTF8.self))
        }
        for text in texts {
            #expect(try StoredJSON.cartLines(text) == JSONDecoder().decode([CartLine].self, from: Data(text.utf8)), "\(text)")
        }
    }

    /// What `JSONDecoder` refuses too, each with where it is wrong.
    @Test(arguments: [
        ("[{", "not JSON at byte 2"),
        ("{}", "not an array"),
        ("[1]", "lines[0] is not an object"),
        (storedLine(lineTotal: nil), "lines[0] has no lineTotal"),
        (storedLine(unitPrice: "\"250\""), "lines[0].unitPrice.minorUnits is not an integer"),
        (storedLine(quantity: "2.5"), "lines[0].quantity is not an integer in range"),
        (storedLine(sku: "SKU A"), "invalid-identifier"),
        (storedLine(currency: "eur"), "invalid-currency-code"),
    ])
    func cartLinesThatDoNotReadAreRefused(text: String, reason: String) {
        #expect(throws: (any Error).self) { try JSONDecoder().decode([CartLine].self, from: Data(text.utf8)) }
        #expect {
            try StoredJSON.cartLines(text)
        } throws: { error in
            "\(error)".contains(reason)
        }
    }

    /// What `JSONDecoder` let by but no line of this worker's can hold: refused rather than believed.
    @Test(arguments: [
        (storedLine(lineTotal: "700"), "totals 750 EUR, not its stored lineTotal 700 EUR"),
        (storedLine(totalCurrency: "USD"), "not its stored lineTotal 750 USD"),
        (storedLine(quantity: "2", unitPrice: "\(Int64.max)"), "overflow"),
    ])
    func cartLinesNoLineCanHoldAreRefused(text: String, reason: String) {
        #expect {
            try StoredJSON.cartLines(text)
        } throws: { error in
            "\(error)".contains(reason)
        }
    }

    /// One stored line of `SKU-A`, 3 × 250 EUR, with the fields given in place of the right ones; nil leaves `lineTotal` out.
    private static func storedLine(
        sku: String = "SKU-A", quantity: String = "3", unitPrice: String = "250", currency: String = "EUR", lineTotal: String? = "750",
        totalCurrency: String = "EUR"
    ) -> String {
        let total = lineTotal.map { #","lineTotal":{"currency":"\#(totalCurrency)","minorUnits":\#($0)}"# } ?? ""
        return #"[{"sku":"\#(sku)","quantity":\#(quantity),"unitPrice":{"currency":"\#(currency)","minorUnits":\#(unitPrice)}\#(total)}]"#
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
