import CheckoutDomain
import JSONWriting

extension PlaceOrderOutcome: StoredJSONWritable {
    func write(to json: inout JSONWriter) {
        switch self {
        case .placed(let order): json.enumCase("placed", "order", order)
        case .rejected(let rejection): json.enumCase("rejected", "rejection", rejection)
        }
    }
}

extension Order: StoredJSONWritable {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("cartID", cartID.rawValue)
        json.field("customerID", customerID.rawValue)
        json.field("id", id.rawValue)
        json.field("lines", lines)
        json.field("payment", payment)
        json.field("placedAt", codable: placedAt)
        json.field("total", total)
        json.endObject()
    }
}

extension Payment: StoredJSONWritable {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("amount", amount)
        json.field("id", id.rawValue)
        json.endObject()
    }
}

extension PlaceOrderRejection: StoredJSONWritable {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("cartID", cartID)
        if let declineCode { json.field("declineCode", declineCode.rawValue) }
        json.field("message", message)
        if let newTotal { json.field("newTotal", newTotal) }
        json.field("reason", reason.rawValue)
        if let refundedPayment { json.field("refundedPayment", refundedPayment) }
        if let skus { json.field("skus", array: skus) { $1.string($0.rawValue) } }
        json.endObject()
    }
}
