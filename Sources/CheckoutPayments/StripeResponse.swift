import Foundation

/// A whole answer of the Stripe API: status and body, read before it is interpreted.
struct StripeResponse {
    let status: Int
    let body: Data

    var isSuccess: Bool { (200..<300).contains(status) }

    /// The body as `T`, or ``PaymentProcessorError/Code/unexpectedResponse`` with the decoding error.
    func decode<T: Decodable>(_ type: T.Type, context: String) throws(PaymentProcessorError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: body)
        } catch {
            throw PaymentProcessorError(
                code: .unexpectedResponse, context: "\(context): HTTP \(status) with an unreadable body", underlying: error)
        }
    }
}
