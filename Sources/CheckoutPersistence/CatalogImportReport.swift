/// What ``CheckoutStore/importCatalog(_:)`` did: how many products were new and how many replaced.
public struct CatalogImportReport: Hashable, Sendable, CustomStringConvertible {
    public let inserted: Int
    public let updated: Int

    public init(inserted: Int, updated: Int) {
        self.inserted = inserted
        self.updated = updated
    }

    public var description: String { "\(inserted) inserted, \(updated) updated" }
}
