/// A digest of what the client sent as a command, to tell the same command sent again from another
/// command that re-uses its id.
///
/// The messaging layer makes it (a hash of the message body); the domain only compares digests. A
/// claim or an outcome stored without one matches any command with the same id.
public struct CommandDigest: Hashable, Sendable, Codable {
    public let rawValue: String

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }
}
