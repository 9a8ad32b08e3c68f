import CheckoutDomain
import CheckoutPersistence
import CheckoutTestSupport
import Foundation

/// The suites' defaults over the shared fixtures: products at 10.00 EUR, carts of two SKU-A, dates in
/// whole seconds, which every engine stores exactly, and a new command id for every call.
enum Fixtures {
    static let eur = currency("EUR")
    static let usd = currency("USD")
    static let now = Date(timeIntervalSince1970: 1_750_000_000)

    static func command(_ raw: String = "cmd-\(UUID().uuidString)") -> CommandID { commandID(raw) }

    static func product(_ sku: String, price: Int64 = 1000, stock: Int = 10, isActive: Bool = true) -> Product {
        CheckoutTestSupport.product(sku, price: CheckoutTestSupport.eur(price), stock: stock, isActive: isActive)
    }

    static func line(_ sku: String, quantity: Int = 1, price: Int64 = 1000) -> CartLine {
        CheckoutTestSupport.line(sku, quantity, at: CheckoutTestSupport.eur(price))
    }

    static func cart(
        _ id: CartID = cartID(),
        version: Int = 1,
        lines: [CartLine] = [line("SKU-A", quantity: 2)],
        isCheckedOut: Bool = false,
        customer: CustomerID = customerID()
    ) -> Cart {
        CheckoutTestSupport.cart(
            id.rawValue, owner: customer.rawValue, version: version, lines: lines, isCheckedOut: isCheckedOut, syncedAt: now
        )
    }

    static func synced(_ cart: Cart) -> SyncCartOutcome {
        .synced(cart: SyncedCart(cart: cart, adjustments: []))
    }

    static func syncRejected(_ message: String = "rejected") -> SyncCartOutcome {
        .rejected(rejection: SyncCartRejection(cartID: "cart-42", reason: .versionConflict, message: message, currentVersion: 3))
    }

    static func placeRejected(_ message: String = "rejected") -> PlaceOrderOutcome {
        .rejected(rejection: PlaceOrderRejection(cartID: "cart-42", reason: .outOfStock, message: message, skus: [sku("SKU-A")]))
    }

    static func order(for cart: Cart, by command: CommandID) -> Order {
        CheckoutTestSupport.order(from: cart, by: command, payment: "pay-\(command)", at: now)
    }

    /// Stores one product, and `customer`'s cart `id` at version 1 holding one of it: what an order
    /// over a real store starts from.
    static func seedOneLineCart(
        _ id: String, of customer: String, selling sku: String, price: Int64, stock: Int, in store: CheckoutStore
    ) async throws {
        _ = try await store.importCatalog([product(sku, price: price, stock: stock)])
        let seeded = cart(cartID(id), lines: [line(sku, price: price)], customer: customerID(customer))
        _ = try await store.syncCarts.record(synced(seeded), digest: nil, for: command())
    }

    /// Stocks `stock` of SKU-A and stores `count` carts at version 1 holding one of it, named
    /// `<prefix>-0`, `<prefix>-1` and so on: what calls that arrive together start from.
    static func seedCartsOfOneSKU(_ count: Int, named prefix: String, stock: Int, in store: CheckoutStore) async throws -> [Cart] {
        _ = try await store.importCatalog([product("SKU-A", stock: stock)])
        let carts = (0..<count).map { cart(cartID("\(prefix)-\($0)"), lines: [line("SKU-A")]) }
        for cart in carts {
            _ = try await store.syncCarts.record(synced(cart), digest: nil, for: command())
        }
        return carts
    }

    /// PlaceOrder as the worker builds it, over every port of `store`.
    static func placeOrder(
        over store: CheckoutStore, payments: any PaymentProcessor, output: any PlaceOrderUseCaseOutput
    ) -> PlaceOrderUseCase {
        PlaceOrderUseCase(
            store: store.placeOrders,
            catalog: store.catalog,
            orders: store.orders,
            payments: payments,
            charges: store.charges,
            processedCommands: store.placeOrderCommands,
            output: output,
            now: { now }
        )
    }
}
