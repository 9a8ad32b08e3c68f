/// Where PlaceOrder reads the cart it orders from; ``SyncCartStore`` writes carts.
public protocol CartRepository: Sendable {
    /// The stored cart, or nil if it was never synced.
    func cart(_ id: CartID) async throws -> Cart?
}
