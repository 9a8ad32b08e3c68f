/// Decodes one column's value into the Swift types the store reads: text, integers, reals, booleans
/// (SQLite's 0 and 1) and optionals of them.
struct SQLiteValueDecoder: Decoder, SingleValueDecodingContainer {
    let value: SQLiteValue
    let column: String

    var codingPath: [any CodingKey] { [ColumnCodingKey(column)] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<K: CodingKey>(keyedBy type: K.Type) throws -> KeyedDecodingContainer<K> {
        throw mismatch(type, "a keyed container")
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw mismatch([Any].self, "an unkeyed container")
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { value == .null }

    func decode(_ type: Bool.Type) throws -> Bool { try integer(type) != 0 }
    func decode(_ type: String.Type) throws -> String {
        guard case .text(let text) = value else { throw mismatch(type, "text") }
        return text
    }
    func decode(_ type: Double.Type) throws -> Double {
        switch value {
        case .real(let real): return real
        case .integer(let integer): return Double(integer)
        default: throw mismatch(type, "a number")
        }
    }
    func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }
    func decode(_ type: Int.Type) throws -> Int { try exactly(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try exactly(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try exactly(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try exactly(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try exactly(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try exactly(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try exactly(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try exactly(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try exactly(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: self) }

    private func integer<T>(_ type: T.Type) throws -> Int64 {
        guard case .integer(let integer) = value else { throw mismatch(type, "an integer") }
        return integer
    }

    private func exactly<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        guard let exact = T(exactly: try integer(type)) else { throw mismatch(type, "an integer that fits") }
        return exact
    }

    private func mismatch(_ type: Any.Type, _ expected: String) -> DecodingError {
        .typeMismatch(type, .init(codingPath: codingPath, debugDescription: "column \(column) holds \(value), not \(expected)"))
    }
}
