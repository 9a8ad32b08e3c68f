/// What ``OrderRepository/place(_:fromCartVersion:recording:for:)`` did.
public enum OrderPlacementResult: Hashable, Sendable {
    /// The order is stored, the stock taken and the cart checked out.
    case placed
    /// Stock of these SKUs was taken in the meantime: nothing changed.
    case outOfStock([SKU])
    /// The cart was synced or checked out in the meantime: nothing changed.
    case cartChanged
    /// The command already has an outcome (a worker whose lease expired finished it): nothing changed.
    case commandAlreadyHandled(PlaceOrderOutcome)
}
