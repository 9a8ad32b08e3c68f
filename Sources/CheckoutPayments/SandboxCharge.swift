public import CheckoutDomain

/// A charge the sandbox approved: the money it took, and the idempotency key that took it.
public struct SandboxCharge: Hashable, Sendable {
    public let idempotencyKey: CommandID
    public let payment: Payment

    public init(idempotencyKey: CommandID, payment: Payment) {
        self.idempotencyKey = idempotencyKey
        self.payment = payment
    }
}
