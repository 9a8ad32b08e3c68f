public import CheckoutDomain
public import Foundation

// Values for tests, built from literals that are known to be valid.

public func eur(_ minorUnits: Int64) -> Money {
    Money(minorUnits: minorUnits, currency: currency("EUR"))
}

public func currency(_ code: String) -> CurrencyCode {
    try! CurrencyCode(code)
}

public func sku(_ value: String) -> SKU {
    try! SKU(value)
}

public func cartID(_ value: String = "cart-42") -> CartID {
    try! CartID(value)
}

public func customerID(_ value: String = "cust-7") -> CustomerID {
    try! CustomerID(value)
}

public func commandID(_ value: String) -> CommandID {
    try! CommandID(value)
}

public func product(_ code: String, price: Money = eur(2999), stock: Int = 10, isActive: Bool = true) -> Product {
    Product(sku: sku(code), name: "Product \(code)", price: price, stock: stock, isActive: isActive)
}

public func line(_ code: String, _ quantity: Int, at price: Money = eur(2999)) -> CartLine {
    try! CartLine(sku: sku(code), quantity: quantity, unitPrice: price)
}

public func cart(
    _ id: String = "cart-42",
    owner: String = "cust-7",
    version: Int = 1,
    lines: [CartLine] = [line("SKU-RED-M", 2)],
    isCheckedOut: Bool = false,
    syncedAt: Date = Date(timeIntervalSince1970: 1_700_000_000)
) -> Cart {
    try! Cart(
        id: cartID(id),
        customerID: customerID(owner),
        version: version,
        currency: currency("EUR"),
        lines: lines,
        isCheckedOut: isCheckedOut,
        syncedAt: syncedAt
    )
}

/// The order `command` places from `cart`, paid in full.
public func order(
    from cart: Cart,
    by command: CommandID,
    payment paymentID: String? = nil,
    at placedAt: Date = Date(timeIntervalSince1970: 1_800_000_000)
) -> Order {
    let total = try! CartLine.total(of: cart.lines, in: cart.currency)
    return Order(
        id: OrderID(placedBy: command),
        cartID: cart.id,
        customerID: cart.customerID,
        lines: cart.lines,
        total: total,
        payment: Payment(id: PaymentID(paymentID ?? "pay_\(command)"), amount: total),
        placedAt: placedAt
    )
}
