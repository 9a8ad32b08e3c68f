import CheckoutDomain

/// A charge Stripe answered with a decline or a permanent failure, on the way out of a step of the charge.
struct StripeRefusal: Error {
    let result: ChargeResult
}
