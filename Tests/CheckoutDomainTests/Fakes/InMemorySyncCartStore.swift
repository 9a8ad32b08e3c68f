import CheckoutDomain

/// ``SyncCartStore`` over ``InMemoryDatabase``; `beforeRecord` lets another worker act between the
/// use case's read and its write, to show how the use case handles losing a race.
struct InMemorySyncCartStore: SyncCartStore {
    let database: InMemoryDatabase
    var beforeRecord: @Sendable (inout DatabaseState) -> Void = { _ in }

    func snapshot(for commandID: CommandID, cart cartID: CartID, currency: CurrencyCode, skus: Set<SKU>) async throws -> SyncCartSnapshot {
        let products = try await InMemoryCatalog(database: database).stocked()
        return try await database.transaction(.loadCart) { state in
            SyncCartSnapshot(
                recorded: state.syncCommands.recorded(commandID),
                cart: state.carts[cartID],
                isCurrencyPriced: products.values.contains { $0.price.currency == currency },
                products: products.filter { skus.contains($0.key) }
            )
        }
    }

    func record(_ outcome: SyncCartOutcome, digest: CommandDigest?, for commandID: CommandID) async throws -> SyncCartRecordResult {
        await database.update(beforeRecord)
        return try await database.transaction(.saveCart) { state in
            if let recorded = state.syncCommands.recorded(commandID) {
                return .alreadyRecorded(recorded)
            }
            if case .synced(let synced) = outcome {
                let stored = state.carts[synced.cart.id]
                let currentVersion = stored?.version ?? 0
                guard currentVersion == synced.cart.version - 1, stored?.isCheckedOut != true else {
                    return .versionConflict(currentVersion: currentVersion)
                }
                state.carts[synced.cart.id] = synced.cart
            }
            _ = state.syncCommands.record(outcome, digest: digest, for: commandID)
            return .recorded
        }
    }
}
