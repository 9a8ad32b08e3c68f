import Foundation
import NIOCore
import NIOHTTP1

/// One request to the fake Stripe, with its query and form parameters decoded.
struct FakeStripeRequest {
    let method: HTTPMethod
    let path: String
    let query: [String: String]
    let form: [String: String]
    let authorization: String?
    let idempotencyKey: String?
    let stripeVersion: String?

    init(head: HTTPRequestHead, body: ByteBuffer) {
        let parts = head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        method = head.method
        path = String(parts[0])
        query = parts.count > 1 ? Self.decode(parts[1]) : [:]
        form = Self.decode(Substring(String(buffer: body)))
        authorization = head.headers.first(name: "Authorization")
        idempotencyKey = head.headers.first(name: "Idempotency-Key")
        stripeVersion = head.headers.first(name: "Stripe-Version")
    }

    /// The parameters, in a canonical order, to tell a repeated request from another one under the same key.
    var fingerprint: String {
        "\(method) \(path)?" + form.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
    }

    /// `application/x-www-form-urlencoded` text as a dictionary; a repeated name keeps its last value.
    private static func decode(_ text: Substring) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let nameAndValue = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decoded = nameAndValue.map { $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0) }
            fields[decoded[0]] = decoded.count > 1 ? decoded[1] : ""
        }
        return fields
    }
}
