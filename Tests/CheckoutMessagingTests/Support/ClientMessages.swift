import Foundation
import RabbitMQ

/// Commands as a client writes them, and events as a client reads them.
enum ClientMessages {
    /// Two `SKU-RED-M` in cart-42 of cust-7, unless told otherwise.
    static func syncCart(cart: String = "cart-42", baseVersion: Int = 0, quantity: Int = 2) -> [UInt8] {
        Array(
            #"{"cartId":"\#(cart)","customerId":"cust-7","baseVersion":\#(baseVersion),"currency":"EUR","items":[{"sku":"SKU-RED-M","quantity":\#(quantity)}]}"#
                .utf8)
    }

    /// The order of the cart `syncCart()` made, at its total.
    static func placeOrder(token: String = "tok_visa") -> [UInt8] {
        Array(
            #"{"cartId":"cart-42","customerId":"cust-7","cartVersion":1,"expectedTotal":5998,"currency":"EUR","payment":{"token":"\#(token)"}}"#
                .utf8)
    }

    /// The properties the contract asks a client for, and a header of the client's own.
    static func properties(
        messageID: String?, replyTo: String? = nil, headers: AMQPFieldTable = ["client-header": "kept"]
    ) -> AMQPProperties {
        AMQPProperties(
            contentType: "application/json", headers: headers, deliveryMode: .persistent, correlationID: "corr-\(messageID ?? "none")",
            replyTo: replyTo, messageID: messageID)
    }

    /// An event's body as JSON.
    static func json(_ message: AMQPMessage) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(message.body))) as? [String: Any] ?? [:]
    }
}
