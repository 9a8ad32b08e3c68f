import Foundation

/// What the fake Stripe answers one request, and when.
struct FakeStripeReply: Sendable {
    enum Delivery: Sendable {
        case immediately
        /// Later than a client will wait: a slow or timed-out gateway.
        case after(Duration)
        /// The head at once, then the body a byte at a time, one every interval: a gateway that keeps
        /// the connection busy without ever finishing its answer in time.
        case trickled(every: Duration)
        /// Never: the connection is closed instead, as when an answer is lost on the way.
        case never
    }

    let status: Int
    let body: String
    var replayed = false
    var delivery = Delivery.immediately

    static func json(_ status: Int, _ object: [String: Any]) -> FakeStripeReply {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return FakeStripeReply(status: status, body: String(decoding: data, as: UTF8.self))
    }

    /// Stripe's error object: `{"error": {"type", "code", "decline_code", "message", "param"}}`.
    static func error(
        _ status: Int, type: String, code: String? = nil, declineCode: String? = nil, param: String? = nil, message: String
    ) -> FakeStripeReply {
        var object: [String: Any] = ["type": type, "message": message]
        object["code"] = code
        object["decline_code"] = declineCode
        object["param"] = param
        return json(status, ["error": object])
    }
}
