import CheckoutDomain
import JSONWriting

extension SyncCartOutcome: StoredJSONWritable {
    func write(to json: inout JSONWriter) {
        switch self {
        case .synced(let cart): json.enumCase("synced", "cart", cart)
        case .rejected(let rejection): json.enumCase("rejected", "rejection", rejection)
        }
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
