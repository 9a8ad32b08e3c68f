import CheckoutDomain

/// ``CartRepository`` over ``InMemoryDatabase``.
struct InMemoryCarts: CartRepository {
    let database: InMemoryDatabase

    func cart(_ id: CartID) async throws -> Cart? {
        try await database.transaction { $0.carts[id] }
    }

    func cartWithProducts(_ id: CartID) async throws -> CartWithProducts? {
        try await database.transaction { state in
            state.carts[id].map { CartWithProducts(cart: $0, products: state.products(Set($0.lines.map(\.sku)))) }
        }
    }
}
