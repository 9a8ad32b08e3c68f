/// A requested line whose SKU and quantity passed the rules of form.
struct RequestedLine: Hashable, Sendable {
    let sku: SKU
    let quantity: Int
}
