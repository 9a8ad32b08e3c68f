/// A JSON value read by ``JSONParser``; a number keeps its text, so an integer field is checked exactly.
public enum JSONValue: Sendable {
    case object([String: JSONValue])
    case array([JSONValue])
    case string(String)
    case number(String)
    case bool(Bool)
    case null
}
