/// One SKU of a cart or an order, priced from the catalog, never from the client.
public struct CartLine: Hashable, Codable, Sendable {
    public let sku: SKU
    public let quantity: Int
    public let unitPrice: Money
    /// `unitPrice × quantity`, computed once so an overflow is found when the line is made.
    public let lineTotal: Money

    public init(sku: SKU, quantity: Int, unitPrice: Money) throws(MoneyError) {
        self.sku = sku
        self.quantity = quantity
        self.unitPrice = unitPrice
        lineTotal = try unitPrice.multiplied(by: quantity)
    }

    /// The sum of the lines' totals: a cart's subtotal, an order's total.
    public static func total(of lines: [CartLine], in currency: CurrencyCode) throws(MoneyError) -> Money {
        var total = Money.zero(currency)
        for line in lines {
            total = try total.adding(line.lineTotal)
        }
        return total
    }
}
