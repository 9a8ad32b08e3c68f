/// A charge the payment processor approved; kept with the order, and needed to refund it.
public struct Payment: Hashable, Codable, Sendable {
    public let id: PaymentID
    public let amount: Money

    public init(id: PaymentID, amount: Money) {
        self.id = id
        self.amount = amount
    }
}
