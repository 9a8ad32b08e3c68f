public import AsyncHTTPClient
public import CheckoutDomain
public import Logging
import Foundation
import NIOCore
import NIOHTTP1

/// Charges and refunds through Stripe's PaymentIntents API.
///
/// A charge creates and confirms a PaymentIntent with the command id as `Idempotency-Key` and as
/// `metadata[command_id]`, so a retried command gets Stripe's stored answer and is charged once.
/// A refund uses the key `refund-<intent id>`, so it too happens once.
///
/// Answers are mapped for the domain: a `card_error` is a decline with Stripe's `decline_code`
/// (its `code` when there is none), but `processing_error` is transient; 409 (a concurrent request
/// with the same key), 429, 5xx, connection failures and timeouts are `RetryableError`
/// (`payment-processor-unavailable`); `idempotency_error` and other 4xx are ``PaymentProcessorError``.
/// A PaymentIntent left in `requires_action` (the card wants 3-D Secure, which a queue worker
/// cannot complete) is a decline with `authentication_required`; nothing was taken.
///
/// The secret key is sent only in the `Authorization` header: it is not logged, and is cut out of
/// the Stripe messages kept in errors.
public struct StripePaymentProcessor: PaymentProcessor {
    private let configuration: StripeConfiguration
    private let httpClient: HTTPClient
    private let logger: Logger

    /// - Parameter httpClient: Best made with ``StripeConfiguration/httpClientConfiguration``; whatever its
    ///   settings, each request is bounded by the configuration's connect plus read timeout.
    public init(configuration: StripeConfiguration, httpClient: HTTPClient, logger: Logger) {
        self.configuration = configuration
        self.httpClient = httpClient
        self.logger = logger
    }

    public func charge(_ amount: Money, with token: PaymentToken, idempotencyKey: CommandID) async throws -> ChargeResult {
        let context = "charging \(amount) for command \(idempotencyKey)"
        let form = StripeForm.encode([
            "amount": String(amount.minorUnits),
            "currency": amount.currency.rawValue.lowercased(),
            "payment_method": token.rawValue,
            "payment_method_types[]": "card",
            "confirm": "true",
            "metadata[command_id]": idempotencyKey.rawValue,
        ])
        let response = try await send(.POST, "/v1/payment_intents", form: form, idempotencyKey: idempotencyKey.rawValue, context: context)
        guard response.isSuccess else {
            let error = StripeAPIError(response, redacting: configuration.apiKey)
            if error.type == "card_error", error.code != "processing_error" {
                let code = DeclineCode(error.declineCode ?? error.code ?? "card_declined")
                logger.info("Stripe declined a charge", metadata: ["command-id": "\(idempotencyKey)", "decline-code": "\(code)"])
                return .declined(code)
            }
            throw failure(error, context: context)
        }
        let intent = try response.decode(StripePaymentIntent.self, context: context)
        switch intent.status {
        case "succeeded":
            let payment = try payment(of: intent, context: context)
            guard payment.amount == amount else {
                throw PaymentProcessorError(code: .unexpectedResponse, context: "\(context): Stripe charged \(payment.amount) in \(intent.id)")
            }
            logger.info("Stripe approved a charge", metadata: ["command-id": "\(idempotencyKey)", "payment-id": "\(intent.id)"])
            return .approved(payment)
        case "requires_action":
            logger.info("Stripe asked for card authentication", metadata: ["command-id": "\(idempotencyKey)", "payment-id": "\(intent.id)"])
            return .declined(DeclineCode("authentication_required"))
        default:
            throw PaymentProcessorError(code: .unexpectedResponse, context: "\(context): PaymentIntent \(intent.id) is \(intent.status)")
        }
    }

    public func refund(_ payment: Payment) async throws {
        let context = "refunding \(payment.id)"
        let form = StripeForm.encode(["payment_intent": payment.id.rawValue])
        let response = try await send(.POST, "/v1/refunds", form: form, idempotencyKey: "refund-\(payment.id)", context: context)
        guard response.isSuccess else {
            let error = StripeAPIError(response, redacting: configuration.apiKey)
            // Refunded before under another key (by hand, say): the money is back, which is what was asked.
            guard error.code == "charge_already_refunded" else { throw failure(error, context: context) }
            return
        }
        logger.info("Stripe refunded a payment", metadata: ["payment-id": "\(payment.id)"])
    }

    /// Finds the charge through Stripe's search API by `metadata[command_id]`, and refunds it.
    ///
    /// Stripe's search is not read-after-write: a PaymentIntent can take up to about a minute
    /// (longer during an incident) to be found. So this is for commands abandoned after their
    /// retries, minutes after the lost answer, and a `nil` soon after a charge is not a proof
    /// that nothing was taken.
    public func refundCharge(madeWith idempotencyKey: CommandID) async throws -> Payment? {
        let context = "refunding the charge of command \(idempotencyKey)"
        let query = StripeForm.encode(["query": "metadata['command_id']:'\(idempotencyKey)'"])
        let response = try await send(.GET, "/v1/payment_intents/search?\(query)", form: nil, idempotencyKey: nil, context: context)
        guard response.isSuccess else {
            throw failure(StripeAPIError(response, redacting: configuration.apiKey), context: context)
        }
        let result = try response.decode(StripeSearchResult.self, context: context)
        guard let intent = result.data.first(where: { $0.status == "succeeded" }) else {
            logger.debug("Stripe has no charge to refund", metadata: ["command-id": "\(idempotencyKey)"])
            return nil
        }
        let payment = try payment(of: intent, context: context)
        try await refund(payment)
        return payment
    }

    private func payment(of intent: StripePaymentIntent, context: String) throws(PaymentProcessorError) -> Payment {
        do {
            let currency = try CurrencyCode(intent.currency.uppercased())
            return Payment(id: PaymentID(intent.id), amount: Money(minorUnits: intent.amount, currency: currency))
        } catch {
            throw PaymentProcessorError(code: .unexpectedResponse, context: "\(context): PaymentIntent \(intent.id) has currency \(intent.currency)", underlying: error)
        }
    }

    /// Sends one request and reads the whole answer; a failure to get one is transient.
    private func send(_ method: HTTPMethod, _ path: String, form: String?, idempotencyKey: String?, context: String) async throws -> StripeResponse {
        var request = HTTPClientRequest(url: configuration.baseURL + path)
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer \(configuration.apiKey)")
        if let idempotencyKey {
            request.headers.add(name: "Idempotency-Key", value: idempotencyKey)
        }
        if let form {
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(ByteBuffer(string: form))
        }
        let started = ContinuousClock.now
        do {
            let answer = try await httpClient.execute(request, timeout: TimeAmount(configuration.requestTimeout))
            let body = try await answer.body.collect(upTo: 1 << 20)
            logger.debug("Stripe answered", metadata: [
                "method": "\(method)", "path": "\(path.prefix { $0 != "?" })", "status": "\(answer.status.code)",
                "replayed": "\(answer.headers.first(name: "Idempotent-Replayed") ?? "false")",
                "duration": "\(ContinuousClock.now - started)",
            ])
            return StripeResponse(status: Int(answer.status.code), body: Data(body.readableBytesView))
        } catch {
            logger.debug("Stripe did not answer", metadata: ["method": "\(method)", "path": "\(path.prefix { $0 != "?" })", "error": "\(error)"])
            throw RetryableError(code: .paymentProcessorUnavailable, context: "\(context): Stripe did not answer", underlying: error)
        }
    }

    /// The domain's error for a failed answer: transient for overload and outages, permanent otherwise.
    private func failure(_ error: StripeAPIError, context: String) -> any Error {
        switch error.status {
        case 409, 429, 500...:
            RetryableError(code: .paymentProcessorUnavailable, context: "\(context): Stripe answered \(error.status)", underlying: error)
        case 402 where error.code == "processing_error":
            RetryableError(code: .paymentProcessorUnavailable, context: "\(context): Stripe had a processing error", underlying: error)
        case 400 where error.type == "idempotency_error":
            PaymentProcessorError(code: .idempotencyKeyReused, context: "\(context): the key was first used for another request", underlying: error)
        case 400..<500:
            PaymentProcessorError(code: .requestRejected, context: "\(context): Stripe answered \(error.status)", underlying: error)
        default:
            PaymentProcessorError(code: .unexpectedResponse, context: "\(context): Stripe answered \(error.status)", underlying: error)
        }
    }
}
