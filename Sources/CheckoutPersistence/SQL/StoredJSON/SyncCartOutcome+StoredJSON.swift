import CheckoutDomain
import JSONWriting

extension SyncCartOutcome: StoredJSONWritable {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        switch self {
        case .synced(let cart):
            json.key("synced")
            json.beginObject()
            json.field("cart", cart)
            json.endObject()
        case .rejected(let rejection):
            json.key("rejected")
            json.beginObject()
            json.field("rejection", rejection)
            json.endObject()
        }
        json.endObject()
    }
}

extension SyncedCart: StoredJSONWritable {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("adjustments", adjustments)
        json.field("cart", cart)
        json.endObject()
    }
}

extension Adjustment: StoredJSONWritable {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("applied", applied)
        json.field("reason", reason.rawValue)
        json.field("requested", requested)
        json.field("sku", sku.rawValue)
        json.endObject()
    }
}

extension SyncCartRejection: StoredJSONWritable {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.field("cartID", cartID)
        if let currentVersion { json.field("currentVersion", currentVersion) }
        json.field("message", message)
        json.field("reason", reason.rawValue)
        json.endObject()
    }
}
