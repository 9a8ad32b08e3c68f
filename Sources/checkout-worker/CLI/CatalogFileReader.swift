import CheckoutDomain
import CheckoutPersistence
import Foundation

/// Reads a catalog file for `catalog import` and for `CHECKOUT_CATALOG_FILE`, so both accept and
/// refuse the same files with the same words.
enum CatalogFileReader {
    /// The file's products; the failure names the file and, for a bad row, its index.
    static func products(at path: String) throws(SubcommandFailure) -> [Product] {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw SubcommandFailure("cannot read \(path): \(error.localizedDescription)")
        }
        do {
            return try CatalogFile.decode(data)
        } catch {
            throw SubcommandFailure("\(path): \(error)")
        }
    }
}
