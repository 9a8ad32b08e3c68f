import CheckoutDomain

/// The JSON body of `order.place`.
struct PlaceOrderBody: CommandBody {
    let cartId: String
    let customerId: String
    let cartVersion: Int
    let expectedTotal: Int64
    let currency: String
    let paymentToken: String

    init(_ fields: CommandFields) throws(MalformedCommand) {
        cartId = try fields.string("cartId")
        customerId = try fields.string("customerId")
        cartVersion = try fields.integer("cartVersion")
        expectedTotal = try fields.integer("expectedTotal", as: Int64.self)
        currency = try fields.string("currency")
        paymentToken = try fields.object("payment").string("token")
    }

    func request(_ envelope: CommandEnvelope) -> PlaceOrderRequest {
        PlaceOrderRequest(
            commandID: envelope.messageID,
            cartID: cartId,
            customerID: customerId,
            cartVersion: cartVersion,
            expectedTotal: expectedTotal,
            currency: currency,
            paymentToken: paymentToken,
            digest: envelope.digest
        )
    }
}
