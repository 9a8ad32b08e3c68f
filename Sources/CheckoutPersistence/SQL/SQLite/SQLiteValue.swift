/// A value as SQLite stores it: one of its five storage classes.
enum SQLiteValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    /// The value of a statement parameter bound through SQLKit, as SQLite stores it.
    init(binding value: any Encodable) throws {
        switch value {
        case let value as String: self = .text(value)
        case let value as Int: self = .integer(Int64(value))
        case let value as Int64: self = .integer(value)
        case let value as Int32: self = .integer(Int64(value))
        case let value as Double: self = .real(value)
        case let value as Bool: self = .integer(value ? 1 : 0)
        case let value as [UInt8]: self = .blob(value)
        default:
            // An absent optional (`\(bind: digest?.rawValue)`): the casts above see through present ones.
            let mirror = Mirror(reflecting: value)
            guard mirror.displayStyle == .optional, mirror.children.isEmpty else {
                throw SQLiteFailure(code: SQLiteFailure.misuse, message: "cannot bind a value of type \(type(of: value))", statement: nil)
            }
            self = .null
        }
    }
}
