import CheckoutDomain

/// ``SyncCartStore`` over ``InMemoryDatabase``; a sync is one transaction.
struct InMemorySyncCartStore: SyncCartStore {
    let database: InMemoryDatabase

    func snapshot(for commandID: CommandID, cart cartID: CartID, currency: CurrencyCode, skus: Set<SKU>) async throws -> SyncCartSnapshot {
        try await database.transaction { state in
            Self.snapshot(for: commandID, cart: cartID, currency: currency, skus: skus, in: state)
        }
    }

    func record(_ outcome: SyncCartOutcome, digest: CommandDigest?, for commandID: CommandID) async throws -> SyncCartRecordResult {
        try await database.transaction { state in
            Self.record(outcome, digest: digest, for: commandID, in: &state)
        }
    }

    func sync(
        for commandID: CommandID, cart cartID: CartID, currency: CurrencyCode, skus: Set<SKU>, digest: CommandDigest?,
        decide: @escaping @Sendable (SyncCartSnapshot) -> SyncCartOutcome
    ) async throws -> SyncCartRecordResult {
        try await database.transaction { state in
            let snapshot = Self.snapshot(for: commandID, cart: cartID, currency: currency, skus: skus, in: state)
            if let recorded = snapshot.recorded {
                return .alreadyRecorded(recorded)
            }
            return Self.record(decide(snapshot), digest: digest, for: commandID, in: &state)
        }
    }

    private static func snapshot(
        for commandID: CommandID, cart cartID: CartID, currency: CurrencyCode, skus: Set<SKU>, in state: InMemoryState
    ) -> SyncCartSnapshot {
        SyncCartSnapshot(
            recorded: state.syncCartCommands.recorded(commandID),
            cart: state.carts[cartID],
            isCurrencyPriced: state.pricedCurrencies.contains(currency),
            products: state.products(skus)
        )
    }

    private static func record(
        _ outcome: SyncCartOutcome, digest: CommandDigest?, for commandID: CommandID, in state: inout InMemoryState
    ) -> SyncCartRecordResult {
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
        return .recorded(outcome)
    }
}
