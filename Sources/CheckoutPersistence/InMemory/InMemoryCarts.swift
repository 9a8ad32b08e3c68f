import CheckoutDomain

/// ``CartRepository`` over ``InMemoryDatabase``.
struct InMemoryCarts: CartRepository {
    let database: InMemoryDatabase

    func cart(_ id: CartID) async throws -> Cart? {
        try await database.transaction { $0.carts[id] }
    }
}
