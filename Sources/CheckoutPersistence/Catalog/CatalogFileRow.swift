import Foundation

/// One element of a catalog file as written, before the domain's rules are checked.
struct CatalogFileRow: Decodable {
    let sku: String
    let name: String
    /// Minor units, like every amount of the contract.
    let unitPrice: Int64
    let currency: String
    let stock: Int
    let active: Bool

    private enum CodingKeys: String, CodingKey {
        case sku, name, unitPrice, currency, stock, active
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        sku = try container.decode(String.self, forKey: .sku)
        name = try container.decode(String.self, forKey: .name)
        unitPrice = try Self.wholeNumber(.unitPrice, in: container)
        currency = try container.decode(String.self, forKey: .currency)
        stock = Int(try Self.wholeNumber(.stock, in: container))
        active = try container.decode(Bool.self, forKey: .active)
    }

    /// Read as a decimal first, because the decoder's own error for `1.5` read as an integer names no field.
    private static func wholeNumber(_ key: CodingKeys, in container: KeyedDecodingContainer<CodingKeys>) throws -> Int64 {
        let value = try container.decode(Decimal.self, forKey: key)
        let whole = NSDecimalNumber(decimal: value).int64Value
        guard Decimal(Int(whole)) == value else {
            throw DecodingError.dataCorruptedError(
                forKey: key, in: container, debugDescription: "must be a whole number that fits in 64 bits")
        }
        return whole
    }
}
