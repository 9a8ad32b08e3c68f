/// Why a catalog file cannot be imported; nothing of it was written.
public struct CatalogFileError: Error, Hashable, CustomStringConvertible {
    /// What is wrong with the file.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let description: String

        /// The file is not a JSON array.
        public static let notAnArray = Code(description: "catalog-not-an-array")
        /// A row is missing a field, has one of the wrong type or breaks a rule.
        public static let invalidRow = Code(description: "invalid-catalog-row")
    }

    public let code: Code
    /// The 0-based position of the bad row in the array, if a row is to blame.
    public let index: Int?
    /// What is wrong; safe to log.
    public let reason: String

    public init(code: Code, index: Int?, reason: String) {
        self.code = code
        self.index = index
        self.reason = reason
    }

    public var description: String {
        guard let index else { return "\(code): \(reason)" }
        return "\(code): row \(index): \(reason)"
    }
}
