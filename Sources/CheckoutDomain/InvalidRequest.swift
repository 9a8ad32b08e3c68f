/// Every rule of form a request breaks, gathered so one `invalid-request` message names them all.
struct InvalidRequest: Error {
    /// Violations a message names one by one: more than a command within the 100 lines can break (two
    /// per line and five of its own). A body of 256 KiB can hold ten thousand lines that each break two
    /// rules, and the message is published, and stored as the command's outcome: past this many, it
    /// counts the rest instead of growing to six times the body.
    static let namedViolations = 250

    private(set) var violations: [String] = []

    /// `invalid request: cartId must be …; items[2].quantity must be …`, and `; and 7 more
    /// violations` past ``namedViolations``.
    var message: String {
        let named = "invalid request: " + violations.prefix(Self.namedViolations).joined(separator: "; ")
        let unnamed = violations.count - Self.namedViolations
        return unnamed > 0 ? "\(named); and \(unnamed) more violations" : named
    }

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
