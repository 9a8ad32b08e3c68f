/// What a worker left in its database, read table by table by ``TestDatabase/snapshot()``.
struct StoreSnapshot: Sendable {
    /// Every row of `orders`: order id → cart id.
    var cartOfOrder: [String: String] = [:]
    /// Rows of `order_lines` by order id, including lines whose order is missing.
    var linesOfOrder: [String: Int] = [:]
    /// `products.stock` by SKU.
    var stock: [String: Int] = [:]
    /// The quantities of all order lines, summed by SKU.
    var orderedQuantity: [String: Int] = [:]
    /// Commands with a recorded outcome, by kind (`sync-cart`, `place-order`).
    var handledCommands: [String: Int] = [:]
    /// Claims without an outcome: commands a worker took and did not finish.
    var unfinishedClaims = 0
}
