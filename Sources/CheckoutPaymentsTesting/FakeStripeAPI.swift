import CheckoutObservability
import NIOHTTP1
import Synchronization

/// The fake Stripe's behaviour, apart from HTTP: the API subset the adapter uses, with Stripe's
/// idempotency and the scripted tokens of ``FakeStripeToken``.
///
/// Every request is handled whole under one lock, so concurrent requests with one key charge once.
final class FakeStripeAPI: Sendable {
    private let options: FakeStripeOptions
    private let state: Mutex<FakeStripeState>

    init(options: FakeStripeOptions) {
        self.options = options
        state = Mutex(FakeStripeState(random: SplitMix64(seed: options.seed)))
    }

    var ledger: FakeStripeLedger { state.withLock { $0.ledger } }

    func handle(_ request: FakeStripeRequest) -> FakeStripeReply {
        let expected = "Bearer \(options.apiKey)"
        guard request.authorization == expected else {
            // Stripe quotes the key it was given, so the adapter must keep messages out of logs or redact them.
            let presented = request.authorization.map { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : $0 } ?? ""
            return .error(401, type: "invalid_request_error", message: "Invalid API Key provided: \(presented)")
        }
        return state.withLock { state in
            state.requestCount += 1
            let failsTransiently =
                options.transientFailureRate > 0
                && Double.random(in: 0..<1, using: &state.random) < options.transientFailureRate
            guard failsTransiently else { return route(request, &state) }
            if Bool.random(using: &state.random) {
                return .error(503, type: "api_error", message: "chaos: the gateway is unavailable")
            }
            var reply = route(request, &state)
            reply.delivery = .never
            return reply
        }
    }

    private func route(_ request: FakeStripeRequest, _ state: inout FakeStripeState) -> FakeStripeReply {
        switch (request.method, request.path) {
        case (.POST, "/v1/payment_methods"):
            idempotent(request, &state, createPaymentMethod)
        case (.POST, "/v1/payment_intents"):
            idempotent(request, &state, createPaymentIntent)
        case (.POST, "/v1/refunds"):
            idempotent(request, &state, createRefund)
        case (.GET, "/v1/payment_intents/search"):
            searchPaymentIntents(request, state)
        default:
            .error(404, type: "invalid_request_error", message: "Unrecognized request URL (\(request.method): \(request.path))")
        }
    }

    /// Runs `work` once per `Idempotency-Key`: a repeat gets the stored answer, marked
    /// `Idempotent-Replayed`; another request under the same key gets 400 `idempotency_error`.
    /// `work` says whether its answer is stored: only a request that ran is, as at Stripe.
    private func idempotent(
        _ request: FakeStripeRequest,
        _ state: inout FakeStripeState,
        _ work: (FakeStripeRequest, inout FakeStripeState) -> (reply: FakeStripeReply, stored: Bool)
    ) -> FakeStripeReply {
        guard let key = request.idempotencyKey else { return work(request, &state).reply }
        if let answer = state.answers[key] {
            guard answer.fingerprint == request.fingerprint else {
                return .error(
                    400, type: "idempotency_error",
                    message:
                        "Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '\(key)' if you meant to execute a different request."
                )
            }
            return FakeStripeReply(status: answer.status, body: answer.body, replayed: true)
        }
        let (reply, stored) = work(request, &state)
        if stored {
            state.answers[key] = FakeStripeStoredAnswer(fingerprint: request.fingerprint, status: reply.status, body: reply.body)
        }
        return reply
    }

    private func createPaymentIntent(_ request: FakeStripeRequest, _ state: inout FakeStripeState) -> (reply: FakeStripeReply, stored: Bool)
    {
        let form = request.form
        guard let amount = form["amount"].flatMap({ Int64($0) }), amount > 0 else {
            return (
                .error(
                    400, type: "invalid_request_error", code: "parameter_invalid_integer", param: "amount",
                    message: "Invalid positive integer"), false
            )
        }
        guard let currency = form["currency"], currency.count == 3, currency == currency.lowercased() else {
            return (
                .error(
                    400, type: "invalid_request_error", code: "parameter_invalid_string", param: "currency", message: "Invalid currency"),
                false
            )
        }
        guard form["confirm"] == "true", let paymentMethod = form["payment_method"] else {
            return (
                .error(
                    400, type: "invalid_request_error", code: "parameter_missing", param: "payment_method",
                    message: "The fake Stripe only creates and confirms in one request: send payment_method and confirm=true"), false
            )
        }
        guard
            let token = FakeStripeToken.paymentMethods[paymentMethod]
                ?? state.paymentMethods.first(where: { $0.id == paymentMethod })?.cardToken
        else {
            return (
                .error(
                    400, type: "invalid_request_error", code: "resource_missing", param: "payment_method",
                    message: "No such PaymentMethod: '\(paymentMethod)'"), false
            )
        }
        switch token {
        case FakeStripeToken.visa, FakeStripeToken.timeoutAfterCharge, FakeStripeToken.trickledAnswer:
            let charge = state.addCharge(
                amount: amount, currency: currency, paymentMethod: paymentMethod, commandID: form["metadata[command_id]"], request: request)
            var reply = FakeStripeReply.json(200, Self.paymentIntent(charge))
            if token == FakeStripeToken.timeoutAfterCharge {
                reply.delivery = .after(options.slowAnswerDelay)
            } else if token == FakeStripeToken.trickledAnswer {
                reply.delivery = .trickled(every: options.trickleInterval)
            }
            return (reply, true)
        case FakeStripeToken.chargeDeclined:
            return (
                .error(402, type: "card_error", code: "card_declined", declineCode: "generic_decline", message: "Your card was declined."),
                true
            )
        case FakeStripeToken.chargeDeclinedInsufficientFunds:
            return (
                .error(
                    402, type: "card_error", code: "card_declined", declineCode: "insufficient_funds",
                    message: "Your card has insufficient funds."), true
            )
        case FakeStripeToken.processingError:
            return (
                .error(
                    402, type: "card_error", code: "processing_error",
                    message: "An error occurred while processing your card. Try again in a little bit."), true
            )
        case FakeStripeToken.gateway500:
            return (.error(500, type: "api_error", message: "scripted: an internal error"), false)
        case FakeStripeToken.gateway429:
            return (.error(429, type: "invalid_request_error", code: "rate_limit", message: "scripted: too many requests"), false)
        case FakeStripeToken.slow:
            var reply = FakeStripeReply.error(500, type: "api_error", message: "scripted: too slow, nothing was charged")
            reply.delivery = .after(options.slowAnswerDelay)
            return (reply, false)
        default:
            return (
                .error(
                    400, type: "invalid_request_error", code: "resource_missing", param: "payment_method",
                    message: "No such PaymentMethod: '\(paymentMethod)'"), false
            )
        }
    }

    /// Makes a PaymentMethod of a card token, the way Stripe takes a legacy token: `type=card&card[token]=tok_…`.
    private func createPaymentMethod(_ request: FakeStripeRequest, _ state: inout FakeStripeState) -> (reply: FakeStripeReply, stored: Bool)
    {
        guard request.form["type"] == "card", let token = request.form["card[token]"] else {
            return (
                .error(
                    400, type: "invalid_request_error", code: "parameter_missing", param: "card",
                    message: "The fake Stripe only makes card PaymentMethods from a token: send type=card and card[token]"), false
            )
        }
        guard FakeStripeToken.all.contains(token) else {
            return (
                .error(
                    400, type: "invalid_request_error", code: "resource_missing", param: "card[token]", message: "No such token: '\(token)'"
                ), false
            )
        }
        let method = state.addPaymentMethod(from: token, idempotencyKey: request.idempotencyKey)
        return (.json(200, ["id": method.id, "object": "payment_method", "type": "card"]), true)
    }

    private func createRefund(_ request: FakeStripeRequest, _ state: inout FakeStripeState) -> (reply: FakeStripeReply, stored: Bool) {
        guard let id = request.form["payment_intent"], let index = state.charges.firstIndex(where: { $0.paymentIntentID == id }) else {
            return (
                .error(
                    400, type: "invalid_request_error", code: "resource_missing", param: "payment_intent",
                    message: "No such payment_intent: '\(request.form["payment_intent"] ?? "")'"), false
            )
        }
        guard !state.charges[index].isRefunded else {
            return (
                .error(
                    400, type: "invalid_request_error", code: "charge_already_refunded",
                    message: "The charge of PaymentIntent \(id) has already been refunded."), false
            )
        }
        let refund = state.addRefund(of: index, idempotencyKey: request.idempotencyKey)
        let object: [String: Any] = [
            "id": refund.id, "object": "refund", "amount": Int(refund.amount), "payment_intent": refund.paymentIntentID,
            "status": "succeeded",
        ]
        return (.json(200, object), true)
    }

    /// Supports the one query the adapter sends: `metadata['command_id']:'…'`, quoted as Stripe's search
    /// language quotes (a backslash escapes the next character; an unescaped quote ends the value, and
    /// anything after it is refused).
    private func searchPaymentIntents(_ request: FakeStripeRequest, _ state: FakeStripeState) -> FakeStripeReply {
        let prefix = "metadata['command_id']:'"
        guard let query = request.query["query"], query.hasPrefix(prefix), let commandID = Self.quotedValue(query.dropFirst(prefix.count))
        else {
            return .error(
                400, type: "invalid_request_error", code: "parameter_invalid_string", param: "query",
                message: "The fake Stripe only searches metadata['command_id']:'…'")
        }
        let indexedBefore = ContinuousClock.now - options.searchLag
        let found = state.ledger.charges(forCommand: commandID)
            .filter { charge in state.chargedAt[charge.paymentIntentID].map { $0 <= indexedBefore } ?? true }
            .map(Self.paymentIntent)
        return .json(200, ["object": "search_result", "url": "/v1/payment_intents/search", "has_more": false, "data": found])
    }

    /// The value of a quoted string whose opening quote is gone, when its closing quote ends `text`.
    private static func quotedValue(_ text: Substring) -> String? {
        var value = ""
        var characters = text.makeIterator()
        while let character = characters.next() {
            switch character {
            case "\\":
                guard let escaped = characters.next() else { return nil }
                value.append(escaped)
            case "'":
                return characters.next() == nil && !value.isEmpty ? value : nil
            default:
                value.append(character)
            }
        }
        return nil
    }

    /// A confirmed PaymentIntent as Stripe shows it; a refunded one is still `succeeded`.
    private static func paymentIntent(_ charge: FakeStripeCharge) -> [String: Any] {
        [
            "id": charge.paymentIntentID,
            "object": "payment_intent",
            "amount": Int(charge.amount),
            "amount_received": Int(charge.amount),
            "currency": charge.currency,
            "status": "succeeded",
            "metadata": charge.commandID.map { ["command_id": $0] } ?? [String: String](),
        ]
    }
}
