import Foundation

/// Stripe's `error` object of a failed request, with the HTTP status and without the secret key.
struct StripeAPIError: Error, CustomStringConvertible {
    let status: Int
    /// `card_error`, `invalid_request_error`, `idempotency_error`, `api_error`, …
    let type: String?
    /// `card_declined`, `processing_error`, `resource_missing`, `charge_already_refunded`, …
    let code: String?
    /// For a `card_declined`: why, e.g. `insufficient_funds`, `generic_decline`.
    let declineCode: String?
    let message: String?

    /// Reads the error from `response`; a body that is not Stripe's error object leaves the fields empty.
    ///
    /// Stripe quotes the key it was given in some messages, so `secret` is cut out of `message`.
    init(_ response: StripeResponse, redacting secret: String) {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let object = try? decoder.decode(Envelope.self, from: response.body).error
        status = response.status
        type = object?.type
        code = object?.code
        declineCode = object?.declineCode
        message = object?.message?.replacingOccurrences(of: secret, with: "<redacted>")
    }

    /// Stripe's message and code, for the customer's client in `payment-failed`; the key is already cut out.
    var customerMessage: String {
        let text = message.flatMap { $0.isEmpty ? nil : $0 } ?? "Stripe refused the request with HTTP \(status)"
        let codes = [code, declineCode].compactMap(\.self).joined(separator: "/")
        return codes.isEmpty ? text : "\(text) (\(codes))"
    }

    var description: String {
        let kind = [type, code, declineCode].compactMap(\.self).joined(separator: "/")
        return "Stripe HTTP \(status) \(kind.isEmpty ? "(no error object)" : kind): \(message ?? "")"
    }

    private struct Envelope: Decodable {
        struct Object: Decodable {
            let type: String?, code: String?, declineCode: String?, message: String?
        }

        let error: Object
    }
}
