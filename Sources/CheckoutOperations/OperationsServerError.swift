/// Why the operations server could not answer what was asked of it.
public struct OperationsServerError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, to branch on.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let description: String

        /// The server is not listening: it stopped, or failed before it could bind.
        public static let notListening = Code(description: "not-listening")
        /// The server could not bind its address (a port in use), or stopped on an error.
        public static let cannotServe = Code(description: "cannot-serve")
    }

    public let code: Code
    /// Where it happened, e.g. the address the server was to bind; safe to log.
    public let context: String

    public init(code: Code, context: String) {
        self.code = code
        self.context = context
    }

    public var description: String { "\(code): \(context)" }
}
