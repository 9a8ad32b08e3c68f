import CheckoutDomain
import Foundation

// The domain's store ports, each passing its calls through a ``StoreInterceptor`` on their way to the real store.

struct InterceptedSyncCartStore: SyncCartStore {
    let store: any SyncCartStore
    let interceptor: StoreInterceptor

    func snapshot(for commandID: CommandID, cart cartID: CartID, currency: CurrencyCode, skus: Set<SKU>) async throws -> SyncCartSnapshot {
        try await interceptor.intercept(.syncSnapshot)
        return try await store.snapshot(for: commandID, cart: cartID, currency: currency, skus: skus)
    }

    func record(_ outcome: SyncCartOutcome, digest: CommandDigest?, for commandID: CommandID) async throws -> SyncCartRecordResult {
        try await interceptor.intercept(.syncRecord)
        return try await store.record(outcome, digest: digest, for: commandID)
    }

    /// As a store whose every call is a round trip does it, so that a test can come between the two.
    func sync(
        for commandID: CommandID, cart cartID: CartID, currency: CurrencyCode, skus: Set<SKU>, digest: CommandDigest?,
        decide: @escaping @Sendable (SyncCartSnapshot) -> SyncCartOutcome
    ) async throws -> SyncCartRecordResult {
        let snapshot = try await snapshot(for: commandID, cart: cartID, currency: currency, skus: skus)
        if let recorded = snapshot.recorded {
            return .alreadyRecorded(recorded)
        }
        return try await record(decide(snapshot), digest: digest, for: commandID)
    }
}

struct InterceptedPlaceOrderStore: PlaceOrderStore {
    let store: any PlaceOrderStore
    let interceptor: StoreInterceptor
    /// False: the claim comes without products and records no charge, as for a cart written before the
    /// store read them with it.
    var keepsProducts = true

    func claim(
        _ commandID: CommandID, digest: CommandDigest?, at now: Date, leaseUntil: Date, cart cartID: CartID,
        chargeRequest: @escaping @Sendable (Cart, [SKU: Product]) -> ChargeRecord?
    ) async throws
        -> PlaceOrderClaim
    {
        try await interceptor.intercept(.claimCommand)
        guard keepsProducts else {
            let start = try await store.claim(commandID, digest: digest, at: now, leaseUntil: leaseUntil, cart: cartID) { _, _ in nil }
            return PlaceOrderClaim(claim: start.claim, cart: start.cart)
        }
        return try await store.claim(commandID, digest: digest, at: now, leaseUntil: leaseUntil, cart: cartID, chargeRequest: chargeRequest)
    }
}

struct InterceptedCatalog: ProductCatalog {
    let catalog: any ProductCatalog
    let interceptor: StoreInterceptor

    func products(_ skus: Set<SKU>) async throws -> [SKU: Product] {
        try await interceptor.intercept(.loadProducts)
        return try await catalog.products(skus)
    }
}

struct InterceptedOrders: OrderRepository {
    let orders: any OrderRepository
    let interceptor: StoreInterceptor

    func place(
        _ order: Order,
        fromCartVersion cartVersion: Int,
        recording outcome: PlaceOrderOutcome,
        for commandID: CommandID
    ) async throws -> OrderPlacementResult {
        try await interceptor.intercept(.placeOrder)
        return try await orders.place(order, fromCartVersion: cartVersion, recording: outcome, for: commandID)
    }
}

struct InterceptedProcessedCommands<Outcome: Codable & Sendable & Equatable>: ProcessedCommands {
    let commands: any ProcessedCommands<Outcome>
    let interceptor: StoreInterceptor

    func claim(_ commandID: CommandID, digest: CommandDigest?, at now: Date, leaseUntil: Date) async throws -> CommandClaim<Outcome> {
        try await interceptor.intercept(.claimCommand)
        return try await commands.claim(commandID, digest: digest, at: now, leaseUntil: leaseUntil)
    }

    func record(_ outcome: Outcome, for commandID: CommandID) async throws -> Outcome {
        try await interceptor.intercept(.recordOutcome)
        return try await commands.record(outcome, for: commandID)
    }

    func release(_ commandID: CommandID) async throws {
        try await interceptor.intercept(.releaseClaim)
        try await commands.release(commandID)
    }
}

struct InterceptedChargeLog: ChargeLog {
    let charges: any ChargeLog
    let interceptor: StoreInterceptor

    func record(_ charge: ChargeRecord, for commandID: CommandID) async throws {
        try await interceptor.intercept(.recordCharge)
        try await charges.record(charge, for: commandID)
    }

    func charge(of commandID: CommandID) async throws -> ChargeRecord? {
        try await interceptor.intercept(.readCharge)
        return try await charges.charge(of: commandID)
    }
}
