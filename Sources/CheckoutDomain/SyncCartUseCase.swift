public import Foundation

/// Replaces a customer's cart with the snapshot they sent, priced from the catalog.
///
/// Checks, in the contract's order: the rules of form (`invalid-request`, naming every violation),
/// the currency against the catalog (`invalid-request`), `baseVersion` (`version-conflict`),
/// the owner (`forbidden`), and that no order was placed from the cart (`cart-checked-out`).
/// Then merges repeated SKUs, drops unknown and inactive ones and clamps quantities to stock,
/// listing every such change as an ``Adjustment``.
///
/// A command is handled once: it is claimed in ``ProcessedCommands`` first, and its outcome is
/// stored there (with the cart, in one unit), so a repeat reports the stored outcome and does nothing else.
/// Rejections of form depend on the message alone and are not stored.
public struct SyncCartUseCase: SyncCart {
    private let carts: any CartRepository
    private let catalog: any ProductCatalog
    private let processedCommands: any ProcessedCommands<SyncCartOutcome>
    private let output: any SyncCartUseCaseOutput
    private let now: @Sendable () -> Date
    private let claimLease: TimeInterval

    /// - Parameter claimLease: Seconds a claim keeps other workers off the command: longer than
    ///   a sync can take, short enough that a crashed worker's command is soon taken over.
    public init(
        carts: any CartRepository,
        catalog: any ProductCatalog,
        processedCommands: any ProcessedCommands<SyncCartOutcome>,
        output: any SyncCartUseCaseOutput,
        now: @escaping @Sendable () -> Date,
        claimLease: TimeInterval = 60
    ) {
        self.carts = carts
        self.catalog = catalog
        self.processedCommands = processedCommands
        self.output = output
        self.now = now
        self.claimLease = claimLease
    }

    public func execute(_ request: SyncCartRequest) async throws {
        let command: SyncCartCommand
        do {
            command = try SyncCartCommand(validating: request)
        } catch {
            return try await output.didReject(SyncCartRejection(cartID: request.cartID, reason: .invalidRequest, message: error.message))
        }
        let now = now()
        try await processedCommands.once(command.id, digest: request.digest, at: now, lease: claimLease,
                                         work: { try await sync(command, at: now) },
                                         report: report,
                                         conflict: { try await output.didReject(.duplicateMessageID(of: request)) })
    }

    /// Reports `unavailable` without recording it: the sync had no effect, so a client (or an operator
    /// replaying the dead letter) may send the same command again and have it handled.
    public func abandon(_ request: SyncCartRequest, after error: RetryableError) async throws {
        guard let command = try? SyncCartCommand(validating: request) else {
            return try await execute(request)
        }
        // The check for an outcome is best effort: the database may be what kept failing.
        let now = now()
        switch try? await processedCommands.claim(command.id, digest: request.digest, at: now, leaseUntil: now) {
        case .completed(let outcome):
            try await report(outcome)
        case .conflicting:
            try await output.didReject(.duplicateMessageID(of: request))
        case .claimed:
            try? await processedCommands.release(command.id)
            try await output.didReject(.unavailable(cartID: request.cartID, after: error))
        case .inProgress, nil:
            try await output.didReject(.unavailable(cartID: request.cartID, after: error))
        }
    }

    private func sync(_ command: SyncCartCommand, at now: Date) async throws -> SyncCartOutcome {
        guard try await catalog.isPriced(in: command.currency) else {
            return try await reject(command, .invalidRequest, "invalid request: currency \(command.currency) is not a currency of the catalog")
        }
        let stored = try await carts.cart(command.cartID)
        let currentVersion = stored?.version ?? 0
        guard command.baseVersion == currentVersion else {
            return try await reject(
                command,
                .versionConflict,
                "cart \(command.cartID) is at version \(currentVersion), not \(command.baseVersion)",
                currentVersion: currentVersion
            )
        }
        if let stored {
            guard stored.customerID == command.customerID else {
                return try await reject(command, .forbidden, "cart \(command.cartID) belongs to another customer")
            }
            guard !stored.isCheckedOut else {
                return try await reject(command, .cartCheckedOut, "an order was already placed from cart \(command.cartID)")
            }
        }
        let (merged, mergeAdjustments) = Self.merge(command.lines)
        let products = try await catalog.products(Set(merged.map(\.sku)))
        let synced: SyncedCart
        do {
            let (lines, stockAdjustments) = try Self.price(merged, with: products, in: command.currency)
            let cart = try Cart(
                id: command.cartID,
                customerID: command.customerID,
                version: command.baseVersion + 1,
                currency: command.currency,
                lines: lines,
                isCheckedOut: false,
                syncedAt: now
            )
            synced = SyncedCart(cart: cart, adjustments: mergeAdjustments + stockAdjustments)
        } catch {
            return try await reject(command, .invalidRequest, "invalid request: the cart's subtotal cannot be computed (\(error))")
        }
        switch try await carts.save(synced.cart, replacing: command.baseVersion, recording: .synced(cart: synced), for: command.id) {
        case .saved:
            return .synced(cart: synced)
        case .versionConflict(let currentVersion):
            return try await reject(
                command,
                .versionConflict,
                "cart \(command.cartID) is at version \(currentVersion), not \(command.baseVersion)",
                currentVersion: currentVersion
            )
        case .commandAlreadyHandled(let outcome):
            return outcome
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
            let applied = min(quantity, SyncCartCommand.quantities.upperBound)
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

    private func reject(
        _ command: SyncCartCommand,
        _ reason: SyncCartRejectionReason,
        _ message: String,
        currentVersion: Int? = nil
    ) async throws -> SyncCartOutcome {
        let rejection = SyncCartRejection(cartID: command.cartID.rawValue, reason: reason, message: message, currentVersion: currentVersion)
        return try await processedCommands.record(.rejected(rejection: rejection), for: command.id)
    }

    private func report(_ outcome: SyncCartOutcome) async throws {
        switch outcome {
        case .synced(let cart): try await output.didSync(cart)
        case .rejected(let rejection): try await output.didReject(rejection)
        }
    }
}
