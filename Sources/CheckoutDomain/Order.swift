public import Foundation

/// A paid order: the cart's lines at today's prices, and the payment that covers them.
public struct Order: Hashable, Codable, Sendable {
    public let id: OrderID
    public let cartID: CartID
    public let customerID: CustomerID
    public let lines: [CartLine]
    /// The sum of the lines, which is what was charged.
    public let total: Money
    public let payment: Payment
    public let placedAt: Date

    public init(
        id: OrderID,
        cartID: CartID,
        customerID: CustomerID,
        lines: [CartLine],
        total: Money,
        payment: Payment,
        placedAt: Date
    ) {
        self.id = id
        self.cartID = cartID
        self.customerID = customerID
        self.lines = lines
        self.total = total
        self.payment = payment
        self.placedAt = placedAt
    }
}
