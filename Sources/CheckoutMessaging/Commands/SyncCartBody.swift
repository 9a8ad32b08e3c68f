import CheckoutDomain

/// The JSON body of `cart.sync`.
struct SyncCartBody: CommandBody {
    struct Item {
        let sku: String
        let quantity: Int
    }

    let cartId: String
    let customerId: String
    let baseVersion: Int
    let currency: String
    let items: [Item]

    init(_ fields: CommandFields) throws(MalformedCommand) {
        cartId = try fields.string("cartId")
        customerId = try fields.string("customerId")
        baseVersion = try fields.integer("baseVersion")
        currency = try fields.string("currency")
        items = try fields.objects("items") { item throws(MalformedCommand) in
            Item(sku: try item.string("sku"), quantity: try item.integer("quantity"))
        }
    }

    func request(_ envelope: CommandEnvelope) -> SyncCartRequest {
        SyncCartRequest(
            commandID: envelope.messageID,
            cartID: cartId,
            customerID: customerId,
            baseVersion: baseVersion,
            currency: currency,
            items: items.map { RequestedItem(sku: $0.sku, quantity: $0.quantity) },
            digest: envelope.digest
        )
    }
}
