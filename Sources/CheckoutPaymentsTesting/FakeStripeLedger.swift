/// What a ``FakeStripeServer`` has taken and given back, at one moment.
public struct FakeStripeLedger: Hashable, Sendable {
    /// Every confirmed PaymentIntent, in the order they were made.
    public let charges: [FakeStripeCharge]
    /// Every refund, in the order they were made.
    public let refunds: [FakeStripeRefund]
    /// Every PaymentMethod made from a card token, in the order they were made.
    public let paymentMethods: [FakeStripePaymentMethod]
    /// How many requests were made with the right key, whatever their answer.
    public let requestCount: Int

    /// The charges made for one command: more than one means a customer was charged twice.
    public func charges(forCommand commandID: String) -> [FakeStripeCharge] {
        charges.filter { $0.commandID == commandID }
    }

    /// The refunds of one PaymentIntent.
    public func refunds(ofPaymentIntent id: String) -> [FakeStripeRefund] {
        refunds.filter { $0.paymentIntentID == id }
    }
}
