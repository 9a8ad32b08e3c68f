import CheckoutDomain
import Foundation

// Domain values for the decorator tests, built from literals that are known to be valid.

let euro = try! CurrencyCode("EUR")

func syncRequest() -> SyncCartRequest {
    SyncCartRequest(commandID: "cmd-1", cartID: "cart-42", customerID: "cust-7", baseVersion: 0, currency: "EUR", items: [])
}

func placeRequest() -> PlaceOrderRequest {
    PlaceOrderRequest(
        commandID: "cmd-2",
        cartID: "cart-42",
        customerID: "cust-7",
        cartVersion: 1,
        expectedTotal: 5998,
        currency: "EUR",
        paymentToken: "tok_secret_visa"
    )
}

func syncedCart() throws -> SyncedCart {
    let sku = try SKU("SKU-RED-M")
    return SyncedCart(
        cart: try Cart(
            id: CartID("cart-42"),
            customerID: CustomerID("cust-7"),
            version: 1,
            currency: euro,
            lines: [CartLine(sku: sku, quantity: 2, unitPrice: Money(minorUnits: 2999, currency: euro))],
            isCheckedOut: false,
            syncedAt: Date(timeIntervalSince1970: 1_800_000_000)
        ),
        adjustments: [
            Adjustment(sku: sku, reason: .merged, requested: 2, applied: 2),
            Adjustment(sku: try SKU("SKU-GONE"), reason: .unknownSKU, requested: 1, applied: 0),
        ]
    )
}

func placedOrder() throws -> Order {
    let total = Money(minorUnits: 5998, currency: euro)
    return Order(
        id: OrderID(placedBy: try CommandID("cmd-2")),
        cartID: try CartID("cart-42"),
        customerID: try CustomerID("cust-7"),
        lines: [try CartLine(sku: SKU("SKU-RED-M"), quantity: 2, unitPrice: Money(minorUnits: 2999, currency: euro))],
        total: total,
        payment: Payment(id: PaymentID("pay_1"), amount: total),
        placedAt: Date(timeIntervalSince1970: 1_800_000_000)
    )
}
