public import Foundation

/// The server's copy of a cart: what its owner last synced, at which version.
///
/// The version grows by one with every accepted sync, so a client syncing from an old copy
/// is told (`version-conflict`) instead of overwriting a newer one.
public struct Cart: Hashable, Codable, Sendable {
    public let id: CartID
    /// The customer who first synced it; nobody else may sync or order it.
    public let customerID: CustomerID
    /// 1 after the first sync; a cart that does not exist yet is at version 0.
    public let version: Int
    public let currency: CurrencyCode
    public let lines: [CartLine]
    public let subtotal: Money
    /// Set when an order is placed from it; a checked-out cart takes no more syncs.
    public let isCheckedOut: Bool
    public let syncedAt: Date

    public init(
        id: CartID,
        customerID: CustomerID,
        version: Int,
        currency: CurrencyCode,
        lines: [CartLine],
        isCheckedOut: Bool,
        syncedAt: Date
    ) throws(MoneyError) {
        self.id = id
        self.customerID = customerID
        self.version = version
        self.currency = currency
        self.lines = lines
        subtotal = try CartLine.total(of: lines, in: currency)
        self.isCheckedOut = isCheckedOut
        self.syncedAt = syncedAt
    }
}
