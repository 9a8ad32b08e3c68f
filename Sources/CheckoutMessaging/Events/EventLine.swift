import CheckoutDomain

/// A cart or order line as events carry it: money in minor units of the event's currency.
struct EventLine: Encodable {
    let sku: String
    let quantity: Int
    let unitPrice: Int64
    let lineTotal: Int64

    init(_ line: CartLine) {
        sku = line.sku.rawValue
        quantity = line.quantity
        unitPrice = line.unitPrice.minorUnits
        lineTotal = line.lineTotal.minorUnits
    }
}
