import CheckoutDomain

/// What the sandbox answered the first request with one idempotency key, and what that request was,
/// so a repeat gets the same answer and a different request under the same key is refused.
struct SandboxLedgerEntry: Sendable {
    let amount: Money
    let token: PaymentToken
    let result: ChargeResult
}
