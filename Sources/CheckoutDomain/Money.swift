/// An amount in integer minor units of one currency (cents for EUR), so prices add up exactly.
///
/// Arithmetic throws ``MoneyError`` on overflow or on mixing currencies instead of trapping,
/// because the amounts come from a catalog and from clients the worker does not control.
public struct Money: Hashable, Codable, Sendable, CustomStringConvertible {
    public let minorUnits: Int64
    public let currency: CurrencyCode

    public init(minorUnits: Int64, currency: CurrencyCode) {
        self.minorUnits = minorUnits
        self.currency = currency
    }

    /// Nothing, in `currency`: the start of a sum.
    public static func zero(_ currency: CurrencyCode) -> Money {
        Money(minorUnits: 0, currency: currency)
    }

    public func adding(_ other: Money) throws(MoneyError) -> Money {
        guard other.currency == currency else {
            throw MoneyError(code: .currencyMismatch, context: "\(self) + \(other)")
        }
        let (sum, overflow) = minorUnits.addingReportingOverflow(other.minorUnits)
        guard !overflow else { throw MoneyError(code: .overflow, context: "\(self) + \(other)") }
        return Money(minorUnits: sum, currency: currency)
    }

    public func multiplied(by factor: Int) throws(MoneyError) -> Money {
        let (product, overflow) = minorUnits.multipliedReportingOverflow(by: Int64(factor))
        guard !overflow else { throw MoneyError(code: .overflow, context: "\(self) × \(factor)") }
        return Money(minorUnits: product, currency: currency)
    }

    /// `5998 EUR`: minor units and code, the way the contract carries them.
    public var description: String { "\(minorUnits) \(currency)" }
}
