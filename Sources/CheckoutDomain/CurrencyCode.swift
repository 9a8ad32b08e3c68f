/// An ISO 4217 currency code such as `EUR`: three uppercase letters.
///
/// Whether the catalog prices anything in it is a business question the use cases ask the catalog.
public struct CurrencyCode: Hashable, Codable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(_ rawValue: String) throws(ValidationError) {
        let isCode = rawValue.utf8.count == 3 && rawValue.utf8.allSatisfy { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }
        guard isCode else {
            throw ValidationError(code: .invalidCurrencyCode, reason: "must be an ISO 4217 code of 3 uppercase letters")
        }
        self.rawValue = rawValue
    }

    public init(from decoder: any Decoder) throws {
        try self.init(decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }
}
