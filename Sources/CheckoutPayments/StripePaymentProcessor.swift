public import AsyncHTTPClient
public import CheckoutDomain
public import Foundation
public import Logging
import NIOCore
import NIOHTTP1

/// Charges and refunds through Stripe's PaymentIntents API, pinned to ``apiVersion``.
///
/// A charge takes a PaymentMethod id (`pm_…`) as is; a card token (`tok_…`) is first made into a
/// PaymentMethod with the key `payment-method-<command id>`, so a retry reuses it. Then it creates and
/// confirms a PaymentIntent with the command id as `Idempotency-Key` and as `metadata[command_id]`,
/// so a retried command gets Stripe's stored answer and is charged once. A token of any other form
/// is refused by ``validate(_:)`` before Stripe is called.
///
/// Every answer is classified for the domain:
/// - a decline (HTTP 402 or a `card_error`) is ``ChargeResult/declined(_:)`` with Stripe's
///   `decline_code`, or its `code` when there is none; but `processing_error` is transient;
/// - 409 (a concurrent request with the same key), 429, 5xx, connection failures and timeouts are
///   `RetryableError` (`payment-processor-unavailable`);
/// - 401 and 403 (a wrong or restricted key) are ``PaymentProcessorError``: the worker's set-up, not the order;
/// - every other 4xx (invalid parameters, an unknown payment method, `idempotency_error`) is
///   ``ChargeResult/failed(_:)`` with Stripe's message, answered at once as `payment-failed`.
/// A PaymentIntent left in `requires_action` (the card wants 3-D Secure, which a queue worker
/// cannot complete) is a decline with `authentication_required`; nothing was taken.
///
/// Approved PaymentIntents are remembered by command (``StripeApprovedCharges``), so
/// ``findCharge(madeWith:)`` answers without Stripe's search, which is only the fallback for a charge
/// whose answer never reached this process. A refund uses the key `refund <intent id>`, so it happens
/// once; the space keeps it out of reach of command ids, which have none, so no client's command can
/// take a refund's key first and make Stripe refuse the refund.
///
/// The secret key is sent only in the `Authorization` header: it is not logged, and is cut out of
/// the Stripe messages kept in errors and failures.
public struct StripePaymentProcessor: PaymentProcessor {
    /// The `Stripe-Version` every request names, so an upgrade of the account's default version
    /// cannot change the answers this adapter reads.
    public static let apiVersion = "2024-06-20"

    private let configuration: StripeConfiguration
    private let httpClient: HTTPClient
    private let logger: Logger
    private let approvals = StripeApprovedCharges()

    /// - Parameter httpClient: Best made with ``StripeConfiguration/httpClientConfiguration(concurrentCharges:)``; whatever its
    ///   settings, each request is bounded by the configuration's connect plus read timeout.
    public init(configuration: StripeConfiguration, httpClient: HTTPClient, logger: Logger) {
        self.configuration = configuration
        self.httpClient = httpClient
        self.logger = logger
    }

    public func validate(_ token: PaymentToken) throws(ValidationError) {
        guard StripePaymentMethodReference(token) != nil else {
            throw ValidationError(code: .invalidPaymentMethod, reason: StripePaymentMethodReference.formRule)
        }
    }

    public func charge(_ amount: Money, with token: PaymentToken, idempotencyKey: CommandID) async throws -> ChargeResult {
        let context = "charging \(amount) for command \(idempotencyKey)"
        let paymentMethod: String
        switch StripePaymentMethodReference(token) {
        case nil:
            return .failed(PaymentFailure(message: "the payment token \(StripePaymentMethodReference.formRule)"))
        case .paymentMethod(let id):
            paymentMethod = id
        case .cardToken(let cardToken):
            switch try await createPaymentMethod(from: cardToken, for: idempotencyKey) {
            case .success(let id): paymentMethod = id
            case .failure(let refusal): return refusal.result
            }
        }
        let form = StripeForm.encode([
            "amount": String(amount.minorUnits),
            "currency": amount.currency.rawValue.lowercased(),
            "payment_method": paymentMethod,
            "payment_method_types[]": "card",
            "confirm": "true",
            "metadata[command_id]": idempotencyKey.rawValue,
        ])
        let response = try await send(.POST, "/v1/payment_intents", form: form, idempotencyKey: idempotencyKey.rawValue, context: context)
        guard response.isSuccess else {
            return try refusal(StripeAPIError(response, redacting: configuration.apiKey), for: idempotencyKey, context: context).result
        }
        let intent = try response.decode(StripePaymentIntent.self, context: context)
        switch intent.status {
        case "succeeded":
            let payment = try payment(of: intent, context: context)
            guard payment.amount == amount else {
                throw PaymentProcessorError(
                    code: .unexpectedResponse, context: "\(context): Stripe charged \(payment.amount) in \(intent.id)")
            }
            approvals.record(payment, for: idempotencyKey)
            logger.info("Stripe approved a charge", metadata: ["command.id": "\(idempotencyKey)", "payment.id": "\(intent.id)"])
            return .approved(payment)
        case "requires_action":
            logger.info(
                "Stripe asked for card authentication", metadata: ["command.id": "\(idempotencyKey)", "payment.id": "\(intent.id)"])
            return .declined(DeclineCode("authentication_required"))
        default:
            throw PaymentProcessorError(code: .unexpectedResponse, context: "\(context): PaymentIntent \(intent.id) is \(intent.status)")
        }
    }

    public func refund(_ payment: Payment) async throws {
        let context = "refunding \(payment.id)"
        let form = StripeForm.encode(["payment_intent": payment.id.rawValue])
        let response = try await send(.POST, "/v1/refunds", form: form, idempotencyKey: "refund \(payment.id)", context: context)
        guard response.isSuccess else {
            let error = StripeAPIError(response, redacting: configuration.apiKey)
            // Refunded before under another key (by hand, say): the money is back, which is what was asked.
            guard error.code == "charge_already_refunded" else { throw failure(error, context: context) }
            return
        }
        logger.info("Stripe refunded a payment", metadata: ["payment.id": "\(payment.id)"])
    }

    /// The PaymentIntent this processor saw approved for the command; failing that, the one Stripe's
    /// search API finds by `metadata[command_id]`.
    ///
    /// Stripe's search is not read-after-write: a PaymentIntent can take up to about a minute
    /// (longer during an incident) to be found. It is only asked for a charge whose answer did not
    /// reach this process (a timeout, a crash, a retry on another worker); there a `nil` soon after
    /// the charge is not a proof that nothing was taken.
    public var searchLag: TimeInterval {
        let (seconds, attoseconds) = configuration.searchLag.components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }

    public func findCharge(madeWith idempotencyKey: CommandID) async throws -> Payment? {
        if let payment = approvals.payment(for: idempotencyKey) { return payment }
        let context = "looking for the charge of command \(idempotencyKey)"
        // A message_id is any printable ASCII: a quote or backslash in it would end or escape the query's own.
        let quoted = idempotencyKey.rawValue.replacing("\\", with: "\\\\").replacing("'", with: "\\'")
        let query = StripeForm.encode(["query": "metadata['command_id']:'\(quoted)'"])
        let response = try await send(.GET, "/v1/payment_intents/search?\(query)", form: nil, idempotencyKey: nil, context: context)
        guard response.isSuccess else {
            let error = failure(StripeAPIError(response, redacting: configuration.apiKey), context: context)
            if !(error is RetryableError) {
                logger.warning(
                    "Stripe refused the search for a command's charge", error: error, metadata: ["command.id": "\(idempotencyKey)"])
            }
            throw error
        }
        let result = try response.decode(StripeSearchResult.self, context: context)
        // Only this command's: a search that matched more than its key must not answer for another order.
        guard let intent = result.data.first(where: { $0.status == "succeeded" && $0.metadata?["command_id"] == idempotencyKey.rawValue })
        else {
            logger.notice("Stripe's search shows no charge of the command", metadata: ["command.id": "\(idempotencyKey)"])
            return nil
        }
        return try payment(of: intent, context: context)
    }

    /// Makes a card token into a PaymentMethod, once per command: the key is derived from the command id.
    private func createPaymentMethod(from cardToken: String, for commandID: CommandID) async throws -> Result<String, StripeRefusal> {
        let context = "making a PaymentMethod of the card token of command \(commandID)"
        let form = StripeForm.encode(["type": "card", "card[token]": cardToken])
        let response = try await send(
            .POST, "/v1/payment_methods", form: form, idempotencyKey: "payment-method-\(commandID)", context: context)
        guard response.isSuccess else {
            return .failure(try refusal(StripeAPIError(response, redacting: configuration.apiKey), for: commandID, context: context))
        }
        return .success(try response.decode(StripePaymentMethod.self, context: context).id)
    }

    private func payment(of intent: StripePaymentIntent, context: String) throws(PaymentProcessorError) -> Payment {
        do {
            let currency = try CurrencyCode(intent.currency.uppercased())
            return Payment(id: PaymentID(intent.id), amount: Money(minorUnits: intent.amount, currency: currency))
        } catch {
            throw PaymentProcessorError(
                code: .unexpectedResponse, context: "\(context): PaymentIntent \(intent.id) has currency \(intent.currency)",
                underlying: error)
        }
    }

    /// Sends one request and reads the whole answer; a failure to get one is transient.
    private func send(
        _ method: HTTPMethod, _ path: String, form: String?, idempotencyKey: String?, context: String
    ) async throws -> StripeResponse {
        var request = HTTPClientRequest(url: configuration.baseURL + path)
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer \(configuration.apiKey)")
        request.headers.add(name: "Stripe-Version", value: Self.apiVersion)
        if let idempotencyKey {
            request.headers.add(name: "Idempotency-Key", value: idempotencyKey)
        }
        if let form {
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(ByteBuffer(string: form))
        }
        let started = ContinuousClock.now
        do {
            let (answer, body) = try await wholeAnswer(to: request)
            logger.debug(
                "Stripe answered",
                metadata: [
                    "http.request.method": "\(method)", "url.path": "\(path.prefix { $0 != "?" })",
                    "http.response.status_code": .stringConvertible(answer.status.code),
                    "stripe.idempotent_replayed": .stringConvertible(answer.headers.first(name: "Idempotent-Replayed") == "true"),
                    "stripe.duration_ms": .stringConvertible(Int((ContinuousClock.now - started) / .milliseconds(1))),
                ])
            return StripeResponse(status: Int(answer.status.code), body: Data(body.readableBytesView))
        } catch {
            logger.debug(
                "Stripe did not answer", error: error,
                metadata: ["http.request.method": "\(method)", "url.path": "\(path.prefix { $0 != "?" })"])
            throw RetryableError(code: .paymentProcessorUnavailable, context: "\(context): Stripe did not answer", underlying: error)
        }
    }

    /// The answer's head and whole body within the request timeout. The client's own deadline ends when
    /// the head arrives, and its read timeout restarts with every byte, so a gateway trickling its body
    /// would otherwise hold the command, and its claim, for as long as it liked.
    private func wholeAnswer(to request: HTTPClientRequest) async throws -> (HTTPClientResponse, ByteBuffer) {
        let timeout = configuration.requestTimeout
        return try await withThrowingTaskGroup(of: (HTTPClientResponse, ByteBuffer).self) { group in
            group.addTask { [httpClient] in
                let answer = try await httpClient.execute(request, timeout: TimeAmount(timeout))
                return (answer, try await answer.body.collect(upTo: 1 << 20))
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw HTTPClientError.deadlineExceeded
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw HTTPClientError.deadlineExceeded }
            return first
        }
    }

    /// A failed answer to a charge as the domain's answer (a decline, a permanent failure), or the
    /// error to throw when retrying may help or the set-up is wrong.
    private func refusal(_ error: StripeAPIError, for commandID: CommandID, context: String) throws -> StripeRefusal {
        if error.code != "processing_error", error.status == 402 || error.type == "card_error" {
            let code = DeclineCode(error.declineCode ?? error.code ?? "card_declined")
            logger.info("Stripe declined a charge", metadata: ["command.id": "\(commandID)", "payment.decline_code": "\(code)"])
            return StripeRefusal(result: .declined(code))
        }
        switch error.status {
        case 400, 404...408, 410...428, 430..<500:
            logger.notice("Stripe refused a charge for good", error: error, metadata: ["command.id": "\(commandID)"])
            return StripeRefusal(result: .failed(PaymentFailure(message: error.customerMessage)))
        default:
            throw failure(error, context: context)
        }
    }

    /// The error for a failed answer: transient for overload and outages, permanent otherwise.
    private func failure(_ error: StripeAPIError, context: String) -> any Error {
        switch error.status {
        case 409, 429, 500...:
            RetryableError(code: .paymentProcessorUnavailable, context: "\(context): Stripe answered \(error.status)", underlying: error)
        case 402 where error.code == "processing_error":
            RetryableError(code: .paymentProcessorUnavailable, context: "\(context): Stripe had a processing error", underlying: error)
        case 400..<500:
            PaymentProcessorError(code: .requestRejected, context: "\(context): Stripe answered \(error.status)", underlying: error)
        default:
            PaymentProcessorError(code: .unexpectedResponse, context: "\(context): Stripe answered \(error.status)", underlying: error)
        }
    }
}
