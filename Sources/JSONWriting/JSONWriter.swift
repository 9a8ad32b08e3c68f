public import Foundation

/// Writes JSON straight into UTF-8 bytes, in the order it is given.
///
/// Every command's result event and log line is written with it: `JSONEncoder` goes through
/// `Codable`'s boxed containers and allocates per key, which profiled as a tenth of a worker's CPU.
/// Keys and values are written as called; nesting and commas are tracked, nothing is validated.
public struct JSONWriter {
    public private(set) var bytes: [UInt8] = []
    /// Whether the next key or element needs a comma before it.
    private var needsComma = false

    public init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    public mutating func beginObject() {
        beginValue()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    public mutating func endObject() {
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    public mutating func beginArray() {
        beginValue()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
    }

    public mutating func endArray() {
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// The key of the next value in an object.
    public mutating func key(_ key: String) {
        beginValue()
        appendQuoted(key)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    public mutating func string(_ value: String) {
        beginValue()
        appendQuoted(value)
        needsComma = true
    }

    public mutating func integer(_ value: some BinaryInteger) {
        beginValue()
        bytes.append(contentsOf: String(value).utf8)
        needsComma = true
    }

    /// The shortest text that reads back as the same `Double`; `null` for infinities and NaN, which
    /// JSON cannot hold.
    public mutating func number(_ value: Double) {
        beginValue()
        bytes.append(contentsOf: (value.isFinite ? value.description : "null").utf8)
        needsComma = true
    }

    public mutating func bool(_ value: Bool) {
        beginValue()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
        needsComma = true
    }

    /// ISO 8601 in UTC with milliseconds, as the contract writes instants: `2026-01-02T03:04:05.678Z`.
    public mutating func timestamp(_ date: Date) {
        beginValue()
        bytes.append(UInt8(ascii: "\""))
        ISO8601Timestamp(date).append(to: &bytes)
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// Ends a line of JSON Lines: a newline after the value.
    public mutating func endLine() {
        bytes.append(UInt8(ascii: "\n"))
        needsComma = false
    }

    /// A key and its string.
    public mutating func field(_ key: String, _ value: String) {
        self.key(key)
        string(value)
    }

    /// A key and its integer.
    public mutating func field(_ key: String, _ value: some BinaryInteger) {
        self.key(key)
        integer(value)
    }

    /// A key and its boolean.
    public mutating func field(_ key: String, _ value: Bool) {
        self.key(key)
        bool(value)
    }

    /// A key and its instant, as ``timestamp(_:)`` writes it.
    public mutating func field(_ key: String, timestamp: Date) {
        self.key(key)
        self.timestamp(timestamp)
    }

    /// A key and an array of `elements`, each written by `write`.
    public mutating func field<Elements: Sequence>(
        _ key: String, array elements: Elements, _ write: (Elements.Element, inout JSONWriter) -> Void
    ) {
        self.key(key)
        beginArray()
        for element in elements { write(element, &self) }
        endArray()
    }

    private mutating func beginValue() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    /// Quotes `string`, escaping what JSON requires; runs that need no escape are copied at once.
    private mutating func appendQuoted(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            var runStart = 0
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                appendEscaped(byte)
                runStart = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func appendEscaped(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
        case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
        case UInt8(ascii: "\n"): bytes.append(contentsOf: #"\n"#.utf8)
        case UInt8(ascii: "\r"): bytes.append(contentsOf: #"\r"#.utf8)
        case UInt8(ascii: "\t"): bytes.append(contentsOf: #"\t"#.utf8)
        case 0x08: bytes.append(contentsOf: #"\b"#.utf8)
        case 0x0C: bytes.append(contentsOf: #"\f"#.utf8)
        default:
            let hex = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: #"\u00"#.utf8)
            bytes.append(hex[Int(byte >> 4)])
            bytes.append(hex[Int(byte & 0x0F)])
        }
    }
}
