import CheckoutDomain

extension Cart {
    /// The same cart, marked as ordered; its version stays, since its lines did not change.
    func checkedOut() throws(MoneyError) -> Cart {
        try Cart(id: id, customerID: customerID, version: version, currency: currency, lines: lines, isCheckedOut: true, syncedAt: syncedAt)
    }
}
