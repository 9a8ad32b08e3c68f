import CheckoutDomain
import JSONWriting

/// A cart or order line as events carry it: money in minor units of the event's currency.
struct EventLine {
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

    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("lineTotal", lineTotal)
        json.field("quantity", quantity)
        json.field("sku", sku)
        json.field("unitPrice", unitPrice)
        json.endObject()
    }
}
