/// An identifier checked against the contract's rule: 1–64 characters of `A–Z a–z 0–9 . _ : -`.
///
/// Every identifier is its own type so a cart id can never be passed where a SKU is expected.
/// It is encoded as a bare string, and decoding checks the rule again.
public protocol Identifier: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    var rawValue: String { get }

    /// Checks `rawValue` against the rule.
    init(_ rawValue: String) throws(ValidationError)
}

extension Identifier {
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        try self.init(decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The rule every identifier shares; returns `rawValue` when it holds.
    static func validated(_ rawValue: String) throws(ValidationError) -> String {
        let rule = "must be 1–64 characters of A–Z a–z 0–9 . _ : -"
        let length = rawValue.unicodeScalars.count
        guard (1...64).contains(length) else {
            throw ValidationError(code: .invalidIdentifier, reason: "\(rule) (has \(length))")
        }
        let allowed = rawValue.unicodeScalars.allSatisfy { scalar in
            switch scalar {
            case "A"..."Z", "a"..."z", "0"..."9", ".", "_", ":", "-": true
            default: false
            }
        }
        guard allowed else {
            throw ValidationError(code: .invalidIdentifier, reason: "\(rule) (has other characters)")
        }
        return rawValue
    }
}
