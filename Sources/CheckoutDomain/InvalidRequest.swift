/// Every rule of form a request breaks, gathered so one `invalid-request` message names them all.
struct InvalidRequest: Error {
    private(set) var violations: [String] = []

    /// `invalid request: cartId must be …; items[2].quantity must be …`
    var message: String { "invalid request: " + violations.joined(separator: "; ") }

    /// The checked value, or nil after noting why `field` breaks its rule.
    mutating func check<Value>(_ field: String, _ make: @autoclosure () throws(ValidationError) -> Value) -> Value? {
        do {
            return try make()
        } catch {
            violations.append("\(field) \(error.reason)")
            return nil
        }
    }

    mutating func note(_ violation: String) {
        violations.append(violation)
    }
}
