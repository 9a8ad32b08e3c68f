/// A value of an AMQP 0-9-1 field table, as carried in message headers and declare arguments.
public enum AMQPFieldValue: Sendable, Hashable {
    case bool(Bool)
    case int8(Int8)
    case uint8(UInt8)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case float(Float)
    case double(Double)
    case decimal(scale: UInt8, value: UInt32)
    case string(String)
    case bytes([UInt8])
    case timestamp(AMQPTimestamp)
    case array([AMQPFieldValue])
    case table(AMQPFieldTable)
    case void

    /// The value as text, for headers that clients may send as a long string or as raw bytes.
    public var stringValue: String? {
        switch self {
        case .string(let text): text
        case .bytes(let bytes): String(validating: bytes, as: UTF8.self)
        default: nil
        }
    }

    /// The value as an integer, whichever integer width the publisher chose.
    public var intValue: Int? {
        switch self {
        case .int8(let v): Int(v)
        case .uint8(let v): Int(v)
        case .int16(let v): Int(v)
        case .uint16(let v): Int(v)
        case .int32(let v): Int(v)
        case .uint32(let v): Int(v)
        case .int64(let v): Int(v)
        case .uint64(let v): Int(exactly: v)
        default: nil
        }
    }
}

/// An AMQP field table: header names to values. Order is not significant on the wire.
public typealias AMQPFieldTable = [String: AMQPFieldValue]

extension AMQPFieldValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .int64(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}
