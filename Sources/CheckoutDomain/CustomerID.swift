/// The customer who owns a cart: the first one to sync it.
public struct CustomerID: Identifier {
    public let rawValue: String

    public init(_ rawValue: String) throws(ValidationError) {
        self.rawValue = try Self.validated(rawValue)
    }
}
