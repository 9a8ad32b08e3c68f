/// A message that cannot be read as a command; it is dead-lettered, never retried.
///
/// `code` goes to the dead letter's `x-error-reason` header, `detail` to `x-error-detail`.
/// The detail names the field and what is wrong, never the offending value, which may be hostile.
public struct MalformedCommand: Error, Hashable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let description: String

        /// The message has no `message_id`, so it has no identity and cannot be handled once.
        public static let missingMessageID = Code(description: "missing-message-id")
        /// The body is not UTF-8.
        public static let invalidEncoding = Code(description: "invalid-encoding")
        /// The body is not JSON.
        public static let invalidJSON = Code(description: "invalid-json")
        /// A required field is absent or null.
        public static let missingField = Code(description: "missing-field")
        /// A field, or the body itself, is of the wrong JSON type, or a number out of range.
        public static let wrongType = Code(description: "wrong-type")
        /// The routing key names no command of the contract.
        public static let unknownRoutingKey = Code(description: "unknown-routing-key")
        /// The body is over the size limit (256 KiB by default); the dead letter keeps only its first bytes.
        public static let bodyTooLarge = Code(description: "body-too-large")
        /// Header tables or arrays nest deeper than the worker reads; the dead letter keeps them cut.
        public static let headersTooDeep = Code(description: "headers-too-deep")
        /// The properties leave less room in their frame than the headers a broker adds on redelivery
        /// take: once requeued or retried, the message could no longer be read.
        public static let headersTooLarge = Code(description: "headers-too-large")
        /// `reply_to` names one of the worker's own queues, where a result event would pose as a command.
        public static let invalidReplyTo = Code(description: "invalid-reply-to")
        /// `content_type` is set to something other than `application/json`.
        public static let unsupportedContentType = Code(description: "unsupported-content-type")
    }

    public let code: Code
    public let detail: String

    public init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    public var description: String { "\(code): \(detail)" }
}
