/// Where PlaceOrder reads the cart it orders from; ``SyncCartStore`` writes carts.
public protocol CartRepository: Sendable {
    /// The stored cart, or nil if it was never synced.
    func cart(_ id: CartID) async throws -> Cart?

    /// In one read: the stored cart, or nil if it was never synced, with the catalog's products of its
    /// lines. On a shared database every round trip is paid by all the workers that share it.
    func cartWithProducts(_ id: CartID) async throws -> CartWithProducts?
}
