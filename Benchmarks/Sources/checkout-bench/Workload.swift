import Foundation

/// The catalog the benchmark's workers sell from and the commands its clients send: every cart of a
/// run is new, holds two lines of a thousand SKUs, and is ordered with the approving sandbox token,
/// so that every command is accepted and orders do not all queue on one product row.
enum Workload {
    static let skuCount = 1_000
    static let skuPrefix = "SKU-BENCH-"
    static let unitPrice = 1_250
    static let stock = 1_000_000_000
    /// What every cart costs: two of one SKU and one of another.
    static let cartTotal = 3 * unitPrice

    /// The file given to the workers as `CHECKOUT_CATALOG_FILE`.
    static func catalogJSON() -> Data {
        let rows = (0..<skuCount).map { index in
            #"{"sku":"\#(sku(index))","name":"Bench product \#(index)","unitPrice":\#(unitPrice),"currency":"EUR","stock":\#(stock),"active":true}"#
        }
        return Data(("[" + rows.joined(separator: ",") + "]").utf8)
    }

    static func syncCart(cart: String, index: Int) -> [UInt8] {
        let first = sku(index % skuCount)
        let second = sku((index + skuCount / 2) % skuCount)
        return Array(
            #"{"cartId":"\#(cart)","customerId":"bench-customer","baseVersion":0,"currency":"EUR","items":[{"sku":"\#(first)","quantity":2},{"sku":"\#(second)","quantity":1}]}"#
                .utf8)
    }

    static func placeOrder(cart: String) -> [UInt8] {
        Array(
            #"{"cartId":"\#(cart)","customerId":"bench-customer","cartVersion":1,"expectedTotal":\#(cartTotal),"currency":"EUR","payment":{"token":"tok_visa"}}"#
                .utf8)
    }

    private static func sku(_ index: Int) -> String {
        "\(skuPrefix)\(index)"
    }
}
