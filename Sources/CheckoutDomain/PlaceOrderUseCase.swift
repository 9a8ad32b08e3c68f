public import Foundation

/// Turns a customer's synced cart into a paid order.
///
/// Checks, in the contract's order, each failure rejecting with nothing charged: the rules of form
/// (`invalid-request`, the payment token's form as the payment processor sees it included), that the cart exists (`cart-not-found`), is the customer's (`forbidden`),
/// is not checked out (`cart-checked-out`), has lines (`cart-empty`) and is at `cartVersion`
/// (`cart-changed`); that re-priced with today's catalog the total is `expectedTotal` in its currency
/// (`price-changed`, with the new total), and that every line is on sale and in stock (`out-of-stock`).
/// Then it charges the total with the command id as idempotency key, unless an earlier attempt did
/// (`payment-declined`, or `payment-failed` for another permanent refusal, answered at once and never
/// retried) and stores the order, stock and checkout in one unit; if that fails after the charge, the
/// charge is refunded (`order-failed`).
///
/// A command is handled once: it is claimed in ``ProcessedCommands`` first (with its cart and
/// products, in one call of ``PlaceOrderStore``, whose write also records the charge's request in
/// ``ChargeLog`` when the rules pass on what it read), and its outcome is stored there (with the
/// order, in one unit), so a repeat reports the stored outcome and charges nothing. A retry takes the
/// charge an earlier attempt recorded as approved, or, once the processor's search can be believed,
/// the one it finds under the command's key; only when there is none does it charge, with the same
/// idempotency key, which the processor answers with the first charge for as long as it keeps the
/// key. A retry rejected before payment, or a command abandoned after its last retry, refunds
/// whatever an earlier attempt charged under that key, so no money is kept without an order. A
/// rejection of form is recorded too, so its id answers another body as a duplicate; only a command
/// whose id itself breaks the rules has nothing to record it under.
public struct PlaceOrderUseCase: PlaceOrder {
    private let store: any PlaceOrderStore
    private let catalog: any ProductCatalog
    private let orders: any OrderRepository
    private let payments: any PaymentProcessor
    private let charges: any ChargeLog
    private let processedCommands: any ProcessedCommands<PlaceOrderOutcome>
    private let output: any PlaceOrderUseCaseOutput
    private let now: @Sendable () -> Date
    private let claimLease: TimeInterval

    /// - Parameter claimLease: Seconds a claim keeps other workers off the command: longer than an order
    ///   can take with the payment processor's timeouts, short enough that a crashed worker's command is soon taken over.
    public init(
        store: any PlaceOrderStore,
        catalog: any ProductCatalog,
        orders: any OrderRepository,
        payments: any PaymentProcessor,
        charges: any ChargeLog,
        processedCommands: any ProcessedCommands<PlaceOrderOutcome>,
        output: any PlaceOrderUseCaseOutput,
        now: @escaping @Sendable () -> Date,
        claimLease: TimeInterval = 120
    ) {
        self.store = store
        self.catalog = catalog
        self.orders = orders
        self.payments = payments
        self.charges = charges
        self.processedCommands = processedCommands
        self.output = output
        self.now = now
        self.claimLease = claimLease
    }

    public func execute(_ request: PlaceOrderRequest) async throws {
        let command: ValidPlaceOrderRequest
        do {
            command = try ValidPlaceOrderRequest(validating: request, payments: payments)
        } catch {
            return try await rejectForm(request, error, evenUnrecorded: false)
        }
        let now = now()
        let start = try await store.claim(
            command.id, digest: request.digest, at: now, leaseUntil: now.addingTimeInterval(claimLease), cart: command.cartID,
            chargeRequest: { [clock = self.now] cart, products in
                guard case .charge = PlaceOrderCheck.of(command, cart: cart, products: products) else { return nil }
                return .requested(at: clock())
            })
        try await processedCommands.once(
            command.id, claim: start.claim,
            work: { try await place(command, start: start, at: now) },
            report: { try await report($0, of: command.id) },
            conflict: { try await output.didReject(.duplicateMessageID(of: request)) })
    }

    /// Records the abandon as the command's outcome: its idempotency key has been used with the
    /// payment processor, so handling it afresh later could meet the refunded charge again.
    ///
    /// Throws ``RetryableError/Code/paymentSearchLagging`` while an earlier attempt's charge may still
    /// show up in the processor's search: it is refunded before the command is answered, also now.
    public func abandon(_ request: PlaceOrderRequest, after error: RetryableError) async throws {
        let command: ValidPlaceOrderRequest
        do {
            command = try ValidPlaceOrderRequest(validating: request, payments: payments)
        } catch {
            return try await rejectForm(request, error, evenUnrecorded: true)
        }
        try await recordOnce(.unavailable(cartID: request.cartID, after: error), for: command.id, request, evenUnrecorded: false)
    }

    /// - Parameter evenUnrecorded: For a command given up after its retries: a database still away does
    ///   not keep the answer back, which needs none.
    private func rejectForm(_ request: PlaceOrderRequest, _ invalid: InvalidRequest, evenUnrecorded: Bool) async throws {
        let rejection = PlaceOrderRejection(cartID: request.cartID, reason: .invalidRequest, message: invalid.message)
        guard let id = try? CommandID(request.commandID) else {
            return try await output.didReject(rejection)
        }
        try await recordOnce(rejection, for: id, request, evenUnrecorded: evenUnrecorded)
    }

    /// Claims the command and records `rejection` as its outcome, unless another is recorded: then
    /// reports that one, or `duplicate-message-id` if it was recorded for another body.
    ///
    /// - Parameter evenUnrecorded: Whether `rejection` is reported also while the database is away; a
    ///   claim taken before it went is released, as a failed attempt's is.
    private func recordOnce(
        _ rejection: PlaceOrderRejection, for commandID: CommandID, _ request: PlaceOrderRequest, evenUnrecorded: Bool
    ) async throws {
        let now = now()
        let claim: CommandClaim<PlaceOrderOutcome>
        do {
            claim = try await processedCommands.claim(
                commandID, digest: request.digest, at: now, leaseUntil: now.addingTimeInterval(claimLease))
        } catch let error as RetryableError where evenUnrecorded && error.code == .databaseUnavailable {
            return try await report(.rejected(rejection: rejection), of: commandID)
        }
        try await processedCommands.once(
            commandID, claim: claim,
            work: {
                do {
                    return try await processedCommands.record(.rejected(rejection: rejection), for: commandID)
                } catch let error as RetryableError where evenUnrecorded && error.code == .databaseUnavailable {
                    try? await processedCommands.release(commandID)
                    return .rejected(rejection: rejection)
                }
            },
            report: { try await report($0, of: commandID) },
            conflict: { try await output.didReject(.duplicateMessageID(of: request)) })
    }

    private func place(_ command: ValidPlaceOrderRequest, start: PlaceOrderClaim, at now: Date) async throws -> PlaceOrderOutcome {
        guard let cart = start.cart else {
            return try await reject(command.rejection(.cartNotFound, "cart \(command.cartID) does not exist"), of: command)
        }
        let products: [SKU: Product]
        if let read = start.products {
            products = read
        } else {
            products = try await catalog.products(Set(cart.lines.map(\.sku)))
        }
        let lines: [CartLine]
        let total: Money
        // The rules the store ran on the same cart and products when it recorded the charge's request.
        switch PlaceOrderCheck.of(command, cart: cart, products: products) {
        case .reject(let rejection):
            return try await reject(rejection, of: command)
        case .charge(let repriced, let sum):
            (lines, total) = (repriced, sum)
        }
        let result: ChargeResult
        if let earlier = try await paymentOfAnEarlierAttempt(start.earlierCharge, of: command.id) {
            guard earlier.amount == total else {
                let failure = "an earlier attempt charged \(earlier.amount), not the total \(total); the payment was refunded"
                return try await reject(command.rejection(.orderFailed, failure, refund: earlier), of: command)
            }
            result = .approved(earlier)
        } else {
            if start.recordedCharge == nil {
                try await charges.record(.requested(at: self.now()), for: command.id)
            }
            do {
                result = try await payments.charge(total, with: command.paymentToken, idempotencyKey: command.id)
            } catch {
                // The answer is lost, and a charge may have been made at any moment of the call: the wait
                // for the processor's search counts from its end. If this cannot be recorded, from its start.
                try? await charges.record(.requested(at: self.now()), for: command.id)
                throw error
            }
        }
        switch result {
        case .declined(let code):
            let rejection = command.rejection(.paymentDeclined, "the payment was declined: \(code)", declineCode: code)
            return try await reject(rejection, of: command)
        case .failed(let failure):
            return try await reject(command.rejection(.paymentFailed, "the payment failed: \(failure.message)"), of: command)
        case .approved(let payment):
            let order = Order(
                id: OrderID(placedBy: command.id),
                cartID: cart.id,
                customerID: cart.customerID,
                lines: lines,
                total: total,
                payment: payment,
                placedAt: now
            )
            do {
                return try await store(order, from: cart, for: command)
            } catch {
                // Only an attempt that stored nothing needs the approval: a later one, on any worker, then
                // takes it for the order or refunds it by its id, without the processor's search.
                try? await charges.record(.approved(payment), for: command.id)
                throw error
            }
        }
    }

    /// What an earlier attempt of the command charged, which this one takes for its order instead of
    /// charging again: the processor may have forgotten the idempotency key since (Stripe keeps keys for
    /// 24 hours, and a dead letter can be replayed days later). A recorded approval is that payment; a
    /// request whose answer was lost is looked up once the processor's search can be believed. A
    /// request recorded more recently than that was written by an attempt that had just looked, or just
    /// charged under the key, so the key still stands for any charge made under it.
    ///
    /// A search the processor refuses for good (Stripe's is not offered in every country) leaves the
    /// key to answer, as it does within a day of its use; a transient failure is retried.
    private func paymentOfAnEarlierAttempt(_ earlier: ChargeRecord?, of commandID: CommandID) async throws -> Payment? {
        switch earlier {
        case nil:
            return nil
        case .approved(let payment):
            return payment
        case .requested(let requestedAt):
            guard now().timeIntervalSince(requestedAt) >= payments.searchLag else { return nil }
            do {
                return try await payments.findCharge(madeWith: commandID)
            } catch let error as RetryableError {
                throw error
            } catch {
                return nil
            }
        }
    }

    /// Stores the paid order; if that cannot be done, records `order-failed` with the payment to refund.
    private func store(_ order: Order, from cart: Cart, for command: ValidPlaceOrderRequest) async throws -> PlaceOrderOutcome {
        let failure: String
        switch try await orders.place(order, fromCartVersion: cart.version, recording: .placed(order: order), for: command.id) {
        case .placed:
            return .placed(order: order)
        case .commandAlreadyHandled(let outcome):
            return outcome
        case .outOfStock(let skus):
            failure = "stock of \(skus.map(\.rawValue).joined(separator: ", ")) ran out while paying"
        case .cartChanged:
            failure = "cart \(command.cartID) changed while paying"
        }
        return try await reject(
            command.rejection(.orderFailed, "the order could not be stored: \(failure); the payment was refunded", refund: order.payment),
            of: command)
    }

    private func reject(_ rejection: PlaceOrderRejection, of command: ValidPlaceOrderRequest) async throws -> PlaceOrderOutcome {
        try await processedCommands.record(.rejected(rejection: rejection), for: command.id)
    }

    /// Refunds first when the outcome owes a refund: the outcome is recorded before the refund is
    /// made, so a crash or a processor outage in between is mended by the redelivery's replay.
    /// A declined charge took nothing, so it owes no refund of an earlier attempt either.
    private func report(_ outcome: PlaceOrderOutcome, of commandID: CommandID) async throws {
        switch outcome {
        case .placed(let order):
            try await output.didPlace(order)
        case .rejected(let rejection):
            if let payment = rejection.refundedPayment {
                try await payments.refund(payment)
            } else if rejection.refundsEarlierCharge {
                try await refundEarlierCharge(of: commandID)
            }
            try await output.didReject(rejection)
        }
    }

    /// Gives back what an earlier attempt of the command charged: by its id when the approval was
    /// recorded; through the processor's search when only the request was (its answer was lost).
    /// A search may not be read-after-write, so one that finds nothing within the processor's
    /// ``PaymentProcessor/searchLag`` of the request is not believed yet, also after the last retry: the
    /// command is looked at again (``RetryableError/Code/paymentSearchLagging``) until it is.
    private func refundEarlierCharge(of commandID: CommandID) async throws {
        switch try await charges.charge(of: commandID) {
        case nil:
            return
        case .approved(let payment):
            try await payments.refund(payment)
        case .requested(let requestedAt):
            if let payment = try await payments.findCharge(madeWith: commandID) {
                return try await payments.refund(payment)
            }
            guard now().timeIntervalSince(requestedAt) < payments.searchLag else { return }
            throw RetryableError(
                code: .paymentSearchLagging,
                context:
                    "the charge command \(commandID) requested at \(requestedAt) is not found yet; the processor's search may lag behind it"
            )
        }
    }
}
