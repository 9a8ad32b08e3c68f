/// The error a database client would throw when the server goes away.
struct ConnectionLost: Error {}
