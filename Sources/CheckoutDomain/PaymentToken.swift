/// The client's payment method, opaque to the worker and handed to the payment processor as is.
///
/// It is a credential: `description` hides it so it never reaches a log.
public struct PaymentToken: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { "<payment token>" }
}
