/// A value that breaks a rule of form of the contract: an identifier or a currency code.
///
/// `reason` is written to complete a sentence that starts with the field's name, so a use case
/// can list every violation of a request in one `invalid-request` message.
public struct ValidationError: Error, Hashable, CustomStringConvertible {
    /// Which rule was broken.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let description: String

        /// Not 1–64 characters of `A–Z a–z 0–9 . _ : -`.
        public static let invalidIdentifier = Code(description: "invalid-identifier")
        /// Not three uppercase letters (ISO 4217).
        public static let invalidCurrencyCode = Code(description: "invalid-currency-code")
        /// A payment token of a form the payment processor can never charge (see ``PaymentProcessor/validate(_:)``).
        public static let invalidPaymentMethod = Code(description: "invalid-payment-method")
    }

    public let code: Code
    /// What is wrong, without the offending value, which may be long or hostile; safe to log.
    public let reason: String

    public init(code: Code, reason: String) {
        self.code = code
        self.reason = reason
    }

    public var description: String { "\(code): \(reason)" }
}
