import CheckoutDomain
import CheckoutPersistence
import Foundation

/// Values the suites build their carts, orders and outcomes from. Dates are whole seconds, which
/// every engine stores exactly.
enum Fixtures {
    static let eur = try! CurrencyCode("EUR")
    static let usd = try! CurrencyCode("USD")
    static let now = Date(timeIntervalSince1970: 1_750_000_000)

    static func sku(_ raw: String) -> SKU { try! SKU(raw) }
    static func cartID(_ raw: String = "cart-42") -> CartID { try! CartID(raw) }
    static func customer(_ raw: String = "cust-7") -> CustomerID { try! CustomerID(raw) }
    static func command(_ raw: String = "cmd-\(UUID().uuidString)") -> CommandID { try! CommandID(raw) }
    static func euros(_ minorUnits: Int64) -> Money { Money(minorUnits: minorUnits, currency: eur) }

    static func product(_ sku: String, price: Int64 = 1000, stock: Int = 10, isActive: Bool = true) -> Product {
        Product(sku: self.sku(sku), name: "Product \(sku)", price: euros(price), stock: stock, isActive: isActive)
    }

    static func line(_ sku: String, quantity: Int = 1, price: Int64 = 1000) -> CartLine {
        try! CartLine(sku: self.sku(sku), quantity: quantity, unitPrice: euros(price))
    }

    static func cart(
        _ id: CartID = cartID(),
        version: Int = 1,
        lines: [CartLine] = [line("SKU-A", quantity: 2)],
        isCheckedOut: Bool = false,
        customer: CustomerID = customer()
    ) -> Cart {
        try! Cart(id: id, customerID: customer, version: version, currency: eur, lines: lines, isCheckedOut: isCheckedOut, syncedAt: now)
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
        let total = try! CartLine.total(of: cart.lines, in: cart.currency)
        return Order(
            id: OrderID(placedBy: command),
            cartID: cart.id,
            customerID: cart.customerID,
            lines: cart.lines,
            total: total,
            payment: Payment(id: PaymentID("pay-\(command)"), amount: total),
            placedAt: now
        )
    }

    /// PlaceOrder as the worker builds it, over every port of `store`.
    static func placeOrder(over store: CheckoutStore, payments: any PaymentProcessor, output: any PlaceOrderUseCaseOutput) -> PlaceOrderUseCase {
        PlaceOrderUseCase(
            carts: store.carts,
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
