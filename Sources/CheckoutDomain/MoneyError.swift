/// Why an amount of money could not be computed: arithmetic on money never traps and never rounds.
public struct MoneyError: Error, Hashable, CustomStringConvertible {
    /// What went wrong, stable enough to branch on and to count.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let description: String

        /// The result does not fit in 64-bit minor units.
        public static let overflow = Code(description: "money-overflow")
        /// Two amounts in different currencies were combined.
        public static let currencyMismatch = Code(description: "currency-mismatch")
    }

    public let code: Code
    /// The operation and its operands; amounts and currency codes only, so it is safe to log.
    public let context: String

    public init(code: Code, context: String) {
        self.code = code
        self.context = context
    }

    public var description: String { "\(code): \(context)" }
}
