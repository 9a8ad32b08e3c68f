/// A `CHECKOUT_DATABASE_URL` that names no database the worker can open.
public struct DatabaseURLError: Error, Hashable, CustomStringConvertible {
    /// What is wrong with the URL.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let description: String

        /// The scheme is none of `sqlite`, `postgres`, `postgresql` or `memory`.
        public static let unsupportedScheme = Code(description: "unsupported-database-scheme")
        /// The scheme is known but the rest cannot be read (no path, no host, a bad port or option).
        public static let malformed = Code(description: "malformed-database-url")
    }

    /// What the variable accepts, for every message.
    static let accepted = "sqlite://PATH, postgres://user:pass@host:port/db or memory://"

    public let code: Code
    /// What is wrong, never the password; safe to log.
    public let reason: String

    public init(code: Code, reason: String) {
        self.code = code
        self.reason = reason
    }

    public var description: String {
        "CHECKOUT_DATABASE_URL \(reason); it accepts \(Self.accepted)"
    }
}
