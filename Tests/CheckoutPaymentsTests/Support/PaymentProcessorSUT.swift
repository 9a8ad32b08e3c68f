import CheckoutDomain

/// A payment processor under the contract suite, with a view of the money it moved.
struct PaymentProcessorSUT {
    let processor: any PaymentProcessor
    /// What the processor declines `tok_chargeDeclined` with: Stripe says `generic_decline`, the sandbox `card_declined`.
    let genericDeclineCode: DeclineCode
    /// How many times the processor took money for a command.
    let chargeCount: (CommandID) async -> Int
    /// How many times the processor gave a payment back.
    let refundCount: (PaymentID) async -> Int
}
