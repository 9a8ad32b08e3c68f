/// A cart as PlaceOrder orders from it, with the catalog's products of its lines, read at once by
/// ``CartRepository/cartWithProducts(_:)``.
public struct CartWithProducts: Sendable, Equatable {
    public let cart: Cart
    /// Those of the lines' SKUs the catalog knows, active or not.
    public let products: [SKU: Product]

    public init(cart: Cart, products: [SKU: Product]) {
        self.cart = cart
        self.products = products
    }
}
