import CheckoutDomain

/// A payment token in one of the two forms a Stripe charge can start from.
///
/// PaymentIntents take a PaymentMethod id; a card token from Stripe.js or the legacy Checkout is first
/// made into a PaymentMethod. Anything else cannot be charged, so it is refused before Stripe is called.
enum StripePaymentMethodReference: Equatable {
    /// `pm_…`, Stripe's test ids such as `pm_card_visa` included: charged as is.
    case paymentMethod(String)
    /// `tok_…`: made into a PaymentMethod (`card[token]`), then charged.
    case cardToken(String)

    /// The reason a token of another form is refused, completing a sentence that starts with the field's name.
    static let formRule = "must be a Stripe PaymentMethod id (pm_…) or card token (tok_…)"

    /// Nil unless `token` is `pm_` or `tok_` followed by 1–250 letters, digits or underscores, as Stripe's ids are.
    init?(_ token: PaymentToken) {
        let text = token.rawValue
        let body: Substring
        if text.hasPrefix("pm_") {
            body = text.dropFirst(3)
            self = .paymentMethod(text)
        } else if text.hasPrefix("tok_") {
            body = text.dropFirst(4)
            self = .cardToken(text)
        } else {
            return nil
        }
        let allowed = body.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "_"):
                true
            default: false
            }
        }
        guard allowed, (1...250).contains(body.utf8.count) else { return nil }
    }
}
