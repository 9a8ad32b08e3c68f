import CheckoutDomain
import JSONWriting

extension Cart: StoredJSONWritable {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("currency", currency.rawValue)
        json.field("customerID", customerID.rawValue)
        json.field("id", id.rawValue)
        json.field("isCheckedOut", isCheckedOut)
        json.field("lines", lines)
        json.field("subtotal", subtotal)
        json.field("syncedAt", codable: syncedAt)
        json.field("version", version)
        json.endObject()
    }
}

extension CartLine: StoredJSONWritable {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("lineTotal", lineTotal)
        json.field("quantity", quantity)
        json.field("sku", sku.rawValue)
        json.field("unitPrice", unitPrice)
        json.endObject()
    }
}

extension Money: StoredJSONWritable {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("currency", currency.rawValue)
        json.field("minorUnits", minorUnits)
        json.endObject()
    }
}
