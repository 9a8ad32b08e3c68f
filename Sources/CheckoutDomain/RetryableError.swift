/// A failure that may pass: the command should be tried again later, not rejected.
///
/// Ports throw it for transient faults (a lost connection, a timeout, a 5xx) and the use cases
/// pass it on from `execute`, after giving up their claim on the command, so a retry can start
/// at once. Any other error a port throws is taken as a defect and is passed on unchanged.
/// The messaging layer retries with backoff and, after the last retry, reports
/// ``SyncCartRejection/unavailable(cartID:after:)`` or ``PlaceOrderRejection/unavailable(cartID:after:)``.
public struct RetryableError: Error, CustomStringConvertible, CustomDebugStringConvertible {
    /// Which dependency failed, and so which reason a final failure is reported with.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let description: String

        /// The database behind carts, catalog, orders or processed commands.
        public static let databaseUnavailable = Code(description: "database-unavailable")
        /// The payment processor; a final failure is `payment-unavailable`.
        public static let paymentProcessorUnavailable = Code(description: "payment-processor-unavailable")
        /// The payment processor's search does not show an earlier attempt's charge yet, though it may
        /// still (``PaymentProcessor/searchLag``): looked at again without spending a retry.
        public static let paymentSearchLagging = Code(description: "payment-search-lagging")
        /// Another worker holds an unexpired claim on the command (see ``ProcessedCommands``).
        public static let commandInProgress = Code(description: "command-in-progress")
        /// The message broker the outcome is reported through (a lost connection, an unconfirmed publish).
        public static let brokerUnavailable = Code(description: "broker-unavailable")
        /// An error nobody classified; retried like a transient fault in case it is one, then given up.
        public static let unexpectedFailure = Code(description: "unexpected-failure")

        /// Whether the command waits for something that will come rather than failed: it is looked at
        /// again without spending a retry.
        public var isWait: Bool {
            self == .commandInProgress || self == .paymentSearchLagging
        }
    }

    public let code: Code
    /// What was being done, e.g. `loading cart cart-42`; safe to log.
    public let context: String
    /// The error the dependency's client threw, kept with its own text for `debugDescription`.
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
