/// A product as the catalog sells it today: its price, how many are in stock, and whether it is on sale.
public struct Product: Hashable, Codable, Sendable {
    public let sku: SKU
    public let name: String
    public let price: Money
    public let stock: Int
    public let isActive: Bool

    public init(sku: SKU, name: String, price: Money, stock: Int, isActive: Bool) {
        self.sku = sku
        self.name = name
        self.price = price
        self.stock = stock
        self.isActive = isActive
    }
}
