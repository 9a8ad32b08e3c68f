public import Foundation

/// Replaces a customer's cart with the snapshot they sent, priced from the catalog.
///
/// Checks, in the contract's order: the rules of form (`invalid-request`, naming every violation),
/// the currency against the catalog (`invalid-request`), `baseVersion` (`version-conflict`),
/// the owner (`forbidden`), and that no order was placed from the cart (`cart-checked-out`).
/// Then merges repeated SKUs, drops unknown and inactive ones and clamps quantities to stock,
/// listing every such change as an ``Adjustment``.
///
/// A command is handled once: its outcome is recorded with the cart in one unit
/// (``SyncCartStore/sync(for:cart:currency:skus:digest:decide:)``), so a repeat reports the recorded outcome and does
/// nothing else. A rejection of form is recorded too, so its id answers another body as a duplicate;
/// only a command whose id itself breaks the rules has nothing to record it under.
///
/// A sync is one read and one write; the command is not claimed first. Deliveries of one command
/// that race may both decide (where the store reads and records in two calls), and the first to
/// record wins: the other reports the winner's outcome.
public struct SyncCartUseCase: SyncCart {
    private let store: any SyncCartStore
    private let output: any SyncCartUseCaseOutput
    private let now: @Sendable () -> Date

    public init(store: any SyncCartStore, output: any SyncCartUseCaseOutput, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.output = output
        self.now = now
    }

    public func execute(_ request: SyncCartRequest) async throws {
        let command: ValidSyncCartRequest
        do {
            command = try ValidSyncCartRequest(validating: request)
        } catch {
            return try await rejectForm(request, error, evenUnrecorded: false)
        }
        let (merged, mergeAdjustments) = Self.merge(command.lines)
        let now = now()
        var result = try await store.sync(
            for: command.id, cart: command.cartID, currency: command.currency, skus: Set(merged.map(\.sku)), digest: request.digest
        ) { snapshot in
            Self.decide(command, merged: merged, adjustments: mergeAdjustments, on: snapshot, at: now)
        }
        // A cart taken first is recorded as the version conflict it is; a rejection has no cart to
        // conflict on, so this loops at most twice.
        while true {
            switch result {
            case .recorded(let outcome):
                return try await report(outcome)
            case .alreadyRecorded(let recorded):
                return try await replay(recorded, to: request)
            case .usedByAnotherCommand:
                return try await output.didReject(.duplicateMessageID(of: request))
            case .versionConflict(let currentVersion):
                let conflict = SyncCartOutcome.rejected(rejection: Self.versionConflict(command, currentVersion: currentVersion))
                result = try await store.record(conflict, digest: request.digest, for: command.id)
            }
        }
    }

    /// Records the rejection of form and reports it, or what was recorded under the id first.
    ///
    /// - Parameter evenUnrecorded: For a command given up after its retries: a database still away does
    ///   not keep the answer back, which needs none.
    private func rejectForm(_ request: SyncCartRequest, _ invalid: InvalidRequest, evenUnrecorded: Bool) async throws {
        let rejection = SyncCartRejection(cartID: request.cartID, reason: .invalidRequest, message: invalid.message)
        guard let id = try? CommandID(request.commandID) else {
            return try await output.didReject(rejection)
        }
        let result: SyncCartRecordResult
        do {
            result = try await store.record(.rejected(rejection: rejection), digest: request.digest, for: id)
        } catch let error as RetryableError where evenUnrecorded && error.code == .databaseUnavailable {
            return try await output.didReject(rejection)
        }
        switch result {
        case .alreadyRecorded(let recorded):
            try await replay(recorded, to: request)
        case .usedByAnotherCommand:
            try await output.didReject(.duplicateMessageID(of: request))
        case .recorded, .versionConflict:
            // A rejection stores no cart, so it meets no version: it is recorded.
            try await output.didReject(rejection)
        }
    }

    /// Reports `unavailable` without recording it: the sync had no effect, so a client (or an operator
    /// replaying the dead letter) may send the same command again and have it handled.
    public func abandon(_ request: SyncCartRequest, after error: RetryableError) async throws {
        let command: ValidSyncCartRequest
        do {
            command = try ValidSyncCartRequest(validating: request)
        } catch {
            return try await rejectForm(request, error, evenUnrecorded: true)
        }
        // The look for an outcome is best effort: the database may be what kept failing.
        let snapshot = try? await store.snapshot(for: command.id, cart: command.cartID, currency: command.currency, skus: [])
        if let recorded = snapshot?.recorded {
            return try await replay(recorded, to: request)
        }
        try await output.didReject(.unavailable(cartID: request.cartID, after: error))
    }

    private static func decide(
        _ command: ValidSyncCartRequest,
        merged: [RequestedLine],
        adjustments mergeAdjustments: [Adjustment],
        on snapshot: SyncCartSnapshot,
        at now: Date
    ) -> SyncCartOutcome {
        guard snapshot.isCurrencyPriced else {
            return Self.reject(command, .invalidRequest, "invalid request: currency \(command.currency) is not a currency of the catalog")
        }
        let stored = snapshot.cart
        let currentVersion = stored?.version ?? 0
        guard command.baseVersion == currentVersion else {
            return .rejected(rejection: Self.versionConflict(command, currentVersion: currentVersion))
        }
        if let stored {
            guard stored.customerID == command.customerID else {
                return Self.reject(command, .forbidden, "cart \(command.cartID) belongs to another customer")
            }
            guard !stored.isCheckedOut else {
                return Self.reject(command, .cartCheckedOut, "an order was already placed from cart \(command.cartID)")
            }
        }
        do {
            let (lines, stockAdjustments) = try Self.price(merged, with: snapshot.products, in: command.currency)
            let cart = try Cart(
                id: command.cartID,
                customerID: command.customerID,
                version: command.baseVersion + 1,
                currency: command.currency,
                lines: lines,
                isCheckedOut: false,
                syncedAt: now
            )
            return .synced(cart: SyncedCart(cart: cart, adjustments: mergeAdjustments + stockAdjustments))
        } catch {
            return Self.reject(command, .invalidRequest, "invalid request: the cart's subtotal cannot be computed (\(error))")
        }
    }

    /// One line per SKU, in the order first requested; quantities added up and capped.
    private static func merge(_ lines: [RequestedLine]) -> ([RequestedLine], [Adjustment]) {
        var requested: [(sku: SKU, quantity: Int, lines: Int)] = []
        var positions: [SKU: Int] = [:]
        for line in lines {
            if let position = positions[line.sku] {
                requested[position].quantity += line.quantity
                requested[position].lines += 1
            } else {
                positions[line.sku] = requested.count
                requested.append((line.sku, line.quantity, 1))
            }
        }
        var merged: [RequestedLine] = []
        var adjustments: [Adjustment] = []
        for (sku, quantity, count) in requested {
            let applied = min(quantity, ValidSyncCartRequest.quantities.upperBound)
            if count > 1 {
                adjustments.append(Adjustment(sku: sku, reason: .merged, requested: quantity, applied: applied))
            }
            merged.append(RequestedLine(sku: sku, quantity: applied))
        }
        return (merged, adjustments)
    }

    /// The lines the catalog can sell, at its prices, and why the others changed.
    private static func price(
        _ requested: [RequestedLine],
        with products: [SKU: Product],
        in currency: CurrencyCode
    ) throws(MoneyError) -> ([CartLine], [Adjustment]) {
        var lines: [CartLine] = []
        var adjustments: [Adjustment] = []
        for line in requested {
            guard let product = products[line.sku], product.price.currency == currency else {
                adjustments.append(Adjustment(sku: line.sku, reason: .unknownSKU, requested: line.quantity, applied: 0))
                continue
            }
            guard product.isActive else {
                adjustments.append(Adjustment(sku: line.sku, reason: .inactiveSKU, requested: line.quantity, applied: 0))
                continue
            }
            let quantity = min(line.quantity, max(product.stock, 0))
            if quantity < line.quantity {
                adjustments.append(Adjustment(sku: line.sku, reason: .clampedToStock, requested: line.quantity, applied: quantity))
            }
            if quantity > 0 {
                lines.append(try CartLine(sku: line.sku, quantity: quantity, unitPrice: product.price))
            }
        }
        return (lines, adjustments)
    }

    private static func reject(_ command: ValidSyncCartRequest, _ reason: SyncCartRejectionReason, _ message: String) -> SyncCartOutcome {
        .rejected(rejection: SyncCartRejection(cartID: command.cartID.rawValue, reason: reason, message: message))
    }

    private static func versionConflict(_ command: ValidSyncCartRequest, currentVersion: Int) -> SyncCartRejection {
        SyncCartRejection(
            cartID: command.cartID.rawValue,
            reason: .versionConflict,
            message: "cart \(command.cartID) is at version \(currentVersion), not \(command.baseVersion)",
            currentVersion: currentVersion
        )
    }

    /// The recorded outcome again for the command it was recorded for; `duplicate-message-id`, and
    /// nothing of it, for a command that re-uses the id with another body.
    private func replay(_ recorded: RecordedOutcome<SyncCartOutcome>, to request: SyncCartRequest) async throws {
        guard recorded.belongs(to: request.digest) else {
            return try await output.didReject(.duplicateMessageID(of: request))
        }
        try await report(recorded.outcome)
    }

    private func report(_ outcome: SyncCartOutcome) async throws {
        switch outcome {
        case .synced(let cart): try await output.didSync(cart)
        case .rejected(let rejection): try await output.didReject(rejection)
        }
    }
}
