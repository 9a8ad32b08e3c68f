/// One line of a `cart.sync` command as decoded, before any rule is checked.
public struct RequestedItem: Hashable, Sendable {
    public var sku: String
    public var quantity: Int

    public init(sku: String, quantity: Int) {
        self.sku = sku
        self.quantity = quantity
    }
}
