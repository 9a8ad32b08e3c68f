import CheckoutDomain

/// ``SyncCartStore`` over ``InMemoryDatabase``.
struct InMemorySyncCartStore: SyncCartStore {
    let database: InMemoryDatabase

    func snapshot(for commandID: CommandID, cart cartID: CartID, currency: CurrencyCode, skus: Set<SKU>) async throws -> SyncCartSnapshot {
        try await database.transaction { state in
            SyncCartSnapshot(
                recorded: state.syncCartCommands.recorded(commandID),
                cart: state.carts[cartID],
                isCurrencyPriced: state.pricedCurrencies.contains(currency),
                products: state.products(skus)
            )
        }
    }

    func record(_ outcome: SyncCartOutcome, digest: CommandDigest?, for commandID: CommandID) async throws -> SyncCartRecordResult {
        try await database.transaction { state in
            if let recorded = state.syncCartCommands.recorded(commandID) {
                return .alreadyRecorded(recorded)
            }
            if state.holds(commandID, besides: \InMemoryState.syncCartCommands) {
                return .usedByAnotherCommand
            }
            if case .synced(let synced) = outcome {
                let stored = state.carts[synced.cart.id]
                let currentVersion = stored?.version ?? 0
                guard currentVersion == synced.cart.version - 1, stored?.isCheckedOut != true else {
                    return .versionConflict(currentVersion: currentVersion)
                }
                state.carts[synced.cart.id] = synced.cart
            }
            _ = state.syncCartCommands.record(outcome, digest: digest, for: commandID)
            return .recorded
        }
    }
}
