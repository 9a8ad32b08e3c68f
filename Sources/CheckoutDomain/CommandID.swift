/// A command's `message_id`: its identity and its idempotency key, for storage and for payment.
public struct CommandID: Identifier {
    public let rawValue: String

    public init(_ rawValue: String) throws(ValidationError) {
        self.rawValue = try Self.validated(rawValue)
    }
}
