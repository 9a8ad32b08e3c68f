import CheckoutDomain
import CheckoutTestSupport
import Foundation

// The requests and outcomes the decorator tests pass through, built from the shared fixtures.

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
    SyncedCart(
        cart: cart(lines: [line("SKU-RED-M", 2, at: eur(2999))], syncedAt: Date(timeIntervalSince1970: 1_800_000_000)),
        adjustments: [
            Adjustment(sku: sku("SKU-RED-M"), reason: .merged, requested: 2, applied: 2),
            Adjustment(sku: sku("SKU-GONE"), reason: .unknownSKU, requested: 1, applied: 0),
        ]
    )
}

func placedOrder() throws -> Order {
    order(
        from: cart(lines: [line("SKU-RED-M", 2, at: eur(2999))]),
        by: commandID("cmd-2"),
        payment: "pay_1",
        at: Date(timeIntervalSince1970: 1_800_000_000)
    )
}
