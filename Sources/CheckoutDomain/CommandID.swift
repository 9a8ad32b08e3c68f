/// A command's `message_id`: its identity and its idempotency key, for storage and for payment.
///
/// Clients choose it, often as a UUID or a URN, so it is not held to the 1–64 character rule of the
/// body's identifiers: any 1–200 printable ASCII characters, which leaves room within AMQP's
/// 255-byte `message_id` for the event ids derived from it.
public struct CommandID: Identifier {
    public let rawValue: String

    public init(_ rawValue: String) throws(ValidationError) {
        let rule = "must be 1–200 printable ASCII characters"
        let length = rawValue.utf8.count
        guard (1...200).contains(length) else {
            throw ValidationError(code: .invalidIdentifier, reason: "\(rule) (has \(length))")
        }
        guard rawValue.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw ValidationError(code: .invalidIdentifier, reason: "\(rule) (has other characters)")
        }
        self.rawValue = rawValue
    }
}
