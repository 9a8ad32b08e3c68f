/// A product of the catalog, as it appears on cart and order lines.
public struct SKU: Identifier {
    public let rawValue: String

    public init(_ rawValue: String) throws(ValidationError) {
        self.rawValue = try Self.validated(rawValue)
    }
}
