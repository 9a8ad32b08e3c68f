/// The error a database client or a broker would throw when the server goes away.
public struct ConnectionLost: Error {
    public init() {}
}
