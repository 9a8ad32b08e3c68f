import CheckoutDomain

/// The JSON body of `cart.sync`: only the JSON types are checked here, the rules of form are the domain's.
struct SyncCartBody: Decodable {
    struct Item: Decodable {
        let sku: String
        let quantity: Int
    }

    let cartId: String
    let customerId: String
    let baseVersion: Int
    let currency: String
    let items: [Item]

    func request(_ envelope: CommandEnvelope) -> SyncCartRequest {
        SyncCartRequest(
            commandID: envelope.messageID,
            cartID: cartId,
            customerID: customerId,
            baseVersion: baseVersion,
            currency: currency,
            items: items.map { RequestedItem(sku: $0.sku, quantity: $0.quantity) }
        )
    }
}
