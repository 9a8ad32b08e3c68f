import CheckoutDomain

/// One ``SQLSyncCartStore/sync(for:cart:currency:skus:digest:decide:)`` call, as a batch carries it.
struct SQLSyncRequest: Sendable {
    let commandID: CommandID
    let cartID: CartID
    let currency: CurrencyCode
    let skus: Set<SKU>
    let digest: CommandDigest?
    let decide: @Sendable (SyncCartSnapshot) -> SyncCartOutcome
}
