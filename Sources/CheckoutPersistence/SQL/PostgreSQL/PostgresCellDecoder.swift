import PostgresNIO

/// Decodes one PostgreSQL value into the scalars postgres-nio decodes itself (text, booleans, floats,
/// integers) and optionals of them; anything else is ``NotAScalar``, for PostgresKit to decode.
struct PostgresCellDecoder: Decoder, SingleValueDecodingContainer {
    /// The value is asked for as a type this decoder leaves to PostgresKit: an array, a keyed value,
    /// or an integer type postgres-nio has no decoder for.
    struct NotAScalar: Error {}

    let cell: PostgresCell

    var codingPath: [any CodingKey] { [ColumnCodingKey(cell.columnName)] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<K: CodingKey>(keyedBy type: K.Type) throws -> KeyedDecodingContainer<K> { throw NotAScalar() }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw NotAScalar() }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { cell.bytes == nil }

    func decode(_ type: Bool.Type) throws -> Bool { try cell.decode(type) }
    func decode(_ type: String.Type) throws -> String { try cell.decode(type) }
    func decode(_ type: Double.Type) throws -> Double { try cell.decode(type) }
    func decode(_ type: Float.Type) throws -> Float { try cell.decode(type) }
    func decode(_ type: Int.Type) throws -> Int { try cell.decode(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try cell.decode(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try cell.decode(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try cell.decode(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try cell.decode(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { throw NotAScalar() }
    func decode(_ type: UInt.Type) throws -> UInt { throw NotAScalar() }
    func decode(_ type: UInt16.Type) throws -> UInt16 { throw NotAScalar() }
    func decode(_ type: UInt32.Type) throws -> UInt32 { throw NotAScalar() }
    func decode(_ type: UInt64.Type) throws -> UInt64 { throw NotAScalar() }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: self) }
}
