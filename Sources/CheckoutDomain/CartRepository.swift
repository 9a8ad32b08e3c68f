/// The stored carts, one by one. ``SyncCartStore`` writes them, and PlaceOrder reads its cart with its
/// claim (``PlaceOrderStore``).
public protocol CartRepository: Sendable {
    /// The stored cart, or nil if it was never synced.
    func cart(_ id: CartID) async throws -> Cart?
}
