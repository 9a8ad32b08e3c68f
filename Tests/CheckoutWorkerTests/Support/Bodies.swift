import Foundation
import RabbitMQ

/// Command bodies as a client writes them, and events as a client reads them.
enum Bodies {
    static func syncCart(
        cart: String = "cart-42", customer: String = "cust-7", baseVersion: Int = 0, items: [(String, Int)] = [("SKU-RED-M", 2)]
    ) -> String {
        let lines = items.map { #"{"sku":"\#($0.0)","quantity":\#($0.1)}"# }.joined(separator: ",")
        return #"{"cartId":"\#(cart)","customerId":"\#(customer)","baseVersion":\#(baseVersion),"currency":"EUR","items":[\#(lines)]}"#
    }

    static func placeOrder(
        cart: String = "cart-42", customer: String = "cust-7", cartVersion: Int = 1, expectedTotal: Int = 5998, token: String = "tok_visa"
    ) -> String {
        #"{"cartId":"\#(cart)","customerId":"\#(customer)","cartVersion":\#(cartVersion),"expectedTotal":\#(expectedTotal),"currency":"EUR","payment":{"token":"\#(token)"}}"#
    }

    static func json(_ delivery: AMQPDelivery) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(delivery.body))) as? [String: Any] ?? [:]
    }
}
