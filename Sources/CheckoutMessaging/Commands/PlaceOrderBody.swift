import CheckoutDomain

/// The JSON body of `order.place`: only the JSON types are checked here, the rules of form are the domain's.
struct PlaceOrderBody: Decodable {
    struct Payment: Decodable {
        let token: String
    }

    let cartId: String
    let customerId: String
    let cartVersion: Int
    let expectedTotal: Int64
    let currency: String
    let payment: Payment

    func request(_ envelope: CommandEnvelope) -> PlaceOrderRequest {
        PlaceOrderRequest(
            commandID: envelope.messageID,
            cartID: cartId,
            customerID: customerId,
            cartVersion: cartVersion,
            expectedTotal: expectedTotal,
            currency: currency,
            paymentToken: payment.token
        )
    }
}
