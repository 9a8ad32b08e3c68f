import CheckoutDomain

extension Product {
    /// The same product with `stock` units on hand.
    func withStock(_ stock: Int) -> Product {
        Product(sku: sku, name: name, price: price, stock: stock, isActive: isActive)
    }
}
