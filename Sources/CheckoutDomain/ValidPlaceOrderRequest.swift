/// A ``PlaceOrderRequest`` that passed every rule of form.
struct ValidPlaceOrderRequest: Sendable {
    let id: CommandID
    let cartID: CartID
    let customerID: CustomerID
    let cartVersion: Int
    let expectedTotal: Money
    let paymentToken: PaymentToken

    /// - Parameter payments: Checks the token's form, which only the payment processor knows.
    init(validating request: PlaceOrderRequest, payments: any PaymentProcessor) throws(InvalidRequest) {
        var invalid = InvalidRequest()
        let id = invalid.check("message_id", try CommandID(request.commandID))
        let cartID = invalid.check("cartId", try CartID(request.cartID))
        let customerID = invalid.check("customerId", try CustomerID(request.customerID))
        let currency = invalid.check("currency", try CurrencyCode(request.currency))
        let token = PaymentToken(request.paymentToken)
        let tokenChecked: Void? = invalid.check("payment.token", try payments.validate(token))
        guard let id, let cartID, let customerID, let currency, tokenChecked != nil else { throw invalid }
        self.id = id
        self.cartID = cartID
        self.customerID = customerID
        cartVersion = request.cartVersion
        expectedTotal = Money(minorUnits: request.expectedTotal, currency: currency)
        paymentToken = token
    }
}
