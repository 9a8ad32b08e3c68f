public import CheckoutDomain
public import Foundation

/// The file `checkout-worker catalog import FILE` reads: a JSON array of
/// `{"sku", "name", "unitPrice", "currency", "stock", "active"}`, prices in minor units.
public enum CatalogFile {
    /// The products of the file, or the first bad row's index and what is wrong with it.
    public static func decode(_ data: Data) throws(CatalogFileError) -> [Product] {
        let elements: [CatalogFileElement]
        do {
            elements = try JSONDecoder().decode([CatalogFileElement].self, from: data)
        } catch {
            throw CatalogFileError(code: .notAnArray, index: nil, reason: "the file is not a JSON array of products")
        }
        var products: [Product] = []
        var rowOfSKU: [SKU: Int] = [:]
        for (index, element) in elements.enumerated() {
            let row: CatalogFileRow
            switch element.row {
            case .success(let decoded):
                row = decoded
            case .failure(let error):
                throw CatalogFileError(code: .invalidRow, index: index, reason: reason(for: error))
            }
            let product: Product
            do {
                product = try self.product(from: row)
            } catch {
                throw CatalogFileError(code: error.code, index: index, reason: error.reason)
            }
            if let first = rowOfSKU.updateValue(index, forKey: product.sku) {
                throw CatalogFileError(code: .invalidRow, index: index, reason: "sku \(product.sku) is already at row \(first)")
            }
            products.append(product)
        }
        return products
    }

    private static func product(from row: CatalogFileRow) throws(CatalogFileError) -> Product {
        func invalid(_ reason: String) -> CatalogFileError {
            CatalogFileError(code: .invalidRow, index: nil, reason: reason)
        }
        let sku: SKU
        let currency: CurrencyCode
        do {
            sku = try SKU(row.sku)
        } catch {
            throw invalid("sku \(error.reason)")
        }
        do {
            currency = try CurrencyCode(row.currency)
        } catch {
            throw invalid("currency \(error.reason)")
        }
        guard !row.name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw invalid("name is empty") }
        guard row.unitPrice >= 0 else { throw invalid("unitPrice must be 0 or more minor units") }
        guard row.stock >= 0 else { throw invalid("stock must be 0 or more") }
        return Product(
            sku: sku, name: row.name, price: Money(minorUnits: row.unitPrice, currency: currency), stock: row.stock, isActive: row.active)
    }

    private static func reason(for error: any Error) -> String {
        guard let error = error as? DecodingError else { return "cannot be read: \(error)" }
        return switch error {
        case .keyNotFound(let key, _):
            "\(key.stringValue) is missing"
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            "\(field(context)) must be \(typeName(type))"
        case .dataCorrupted(let context):
            "\(field(context)) \(context.debugDescription)"
        @unknown default:
            "\(error)"
        }
    }

    private static func field(_ context: DecodingError.Context) -> String {
        context.codingPath.last { $0.intValue == nil }?.stringValue ?? "the row"
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Decimal.Type: "a number"
        default: "an object"
        }
    }
}
