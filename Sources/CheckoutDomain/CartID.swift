/// A cart, the unit a customer syncs and then checks out.
public struct CartID: Identifier {
    public let rawValue: String

    public init(_ rawValue: String) throws(ValidationError) {
        self.rawValue = try Self.validated(rawValue)
    }
}
