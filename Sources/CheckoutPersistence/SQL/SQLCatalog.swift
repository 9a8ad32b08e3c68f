import CheckoutDomain
import SQLKit

/// ``ProductCatalog`` over the `products` table.
struct SQLCatalog: ProductCatalog {
    let executor: SQLExecutor

    /// The columns ``product(from:)`` reads.
    static let columns = "products.sku, products.name, products.unit_price, products.currency, products.stock, products.active"

    func products(_ skus: Set<SKU>) async throws -> [SKU: Product] {
        guard !skus.isEmpty else { return [:] }
        return try await executor.read("loading \(skus.count) products") { database in
            try await Self.products(skus, on: database)
        }
    }

    /// Those of `skus` the catalog knows, read on `database`.
    static func products(_ skus: Set<SKU>, on database: any SQLDatabase) async throws -> [SKU: Product] {
        guard !skus.isEmpty else { return [:] }
        var products: [SKU: Product] = [:]
        for chunk in Array(skus).chunked(into: SQLLimits.bindsPerStatement) {
            let rows = try await database.raw(
                """
                SELECT \(unsafeRaw: Self.columns) FROM products
                WHERE sku IN (\(binds: chunk.map(\.rawValue)))
                """
            ).all()
            for row in rows {
                let product = try Self.product(from: StoredRow(row, of: "products"))
                products[product.sku] = product
            }
        }
        return products
    }

    static func product(from row: StoredRow) throws -> Product {
        Product(
            sku: try row.identifier("sku"),
            name: try row.value("name"),
            price: Money(minorUnits: try row.value("unit_price"), currency: try row.currency("currency")),
            stock: try row.value("stock"),
            isActive: try row.value("active")
        )
    }
}
