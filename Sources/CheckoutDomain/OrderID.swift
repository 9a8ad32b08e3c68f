/// An order; it follows ``CommandID``'s rule, not the body identifiers' one.
///
/// An order placed by the worker takes the id of the command that placed it, so a redelivered
/// command can never store a second order under another id.
public struct OrderID: Identifier {
    public let rawValue: String

    public init(_ rawValue: String) throws(ValidationError) {
        self.rawValue = try CommandID(rawValue).rawValue
    }

    /// The id of the order that `commandID` places; both follow the command id's rule, so nothing is checked again.
    public init(placedBy commandID: CommandID) {
        rawValue = commandID.rawValue
    }
}
