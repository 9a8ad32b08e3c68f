/// A payment request the processor refused for good: retrying it with the same input cannot succeed.
///
/// Transient faults are thrown as the domain's `RetryableError` instead, and a charge refused for good
/// is an answer (`ChargeResult.declined` or `.failed`); this error reaches the worker as a defect of
/// the set-up (a wrong API key) or of the processor's answer.
public struct PaymentProcessorError: Error, CustomStringConvertible, CustomDebugStringConvertible {
    /// What went wrong, stable enough to branch on and to count.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let description: String

        /// The processor refused a request other than a charge (a refund of an unknown payment), or the API key.
        public static let requestRejected = Code(description: "payment-request-rejected")
        /// The processor answered something the adapter cannot read or act on.
        public static let unexpectedResponse = Code(description: "payment-unexpected-response")
        /// A setting of the processor is unusable; found at start-up.
        public static let invalidConfiguration = Code(description: "payment-invalid-configuration")
    }

    public let code: Code
    /// What was being done, e.g. `charging 5998 EUR for command cmd-1`; never a secret, safe to log.
    public let context: String
    /// The processor's own account of the failure, with any secret removed, for `debugDescription`.
    public let underlying: (any Error)?

    public init(code: Code, context: String, underlying: (any Error)? = nil) {
        self.code = code
        self.context = context
        self.underlying = underlying
    }

    public var description: String { "\(code): \(context)" }

    public var debugDescription: String {
        guard let underlying else { return description }
        return "\(description) (\(String(reflecting: underlying)))"
    }
}
