/// A ``SyncCartRequest`` that passed every rule of form.
struct ValidSyncCartRequest: Sendable {
    static let maximumLines = 100
    static let quantities = 1...99

    let id: CommandID
    let cartID: CartID
    let customerID: CustomerID
    let baseVersion: Int
    let currency: CurrencyCode
    let lines: [RequestedLine]

    init(validating request: SyncCartRequest) throws(InvalidRequest) {
        var invalid = InvalidRequest()
        let id = invalid.check("message_id", try CommandID(request.commandID))
        let cartID = invalid.check("cartId", try CartID(request.cartID))
        let customerID = invalid.check("customerId", try CustomerID(request.customerID))
        let currency = invalid.check("currency", try CurrencyCode(request.currency))
        if request.items.count > Self.maximumLines {
            invalid.note("items has \(request.items.count) lines, at most \(Self.maximumLines) are allowed")
        }
        var lines: [RequestedLine] = []
        for (index, item) in request.items.enumerated() {
            let sku = invalid.check("items[\(index)].sku", try SKU(item.sku))
            if !Self.quantities.contains(item.quantity) {
                invalid.note("items[\(index)].quantity must be between 1 and 99 (is \(item.quantity))")
            }
            if let sku {
                lines.append(RequestedLine(sku: sku, quantity: item.quantity))
            }
        }
        guard let id, let cartID, let customerID, let currency, invalid.violations.isEmpty else { throw invalid }
        self.id = id
        self.cartID = cartID
        self.customerID = customerID
        baseVersion = request.baseVersion
        self.currency = currency
        self.lines = lines
    }
}
