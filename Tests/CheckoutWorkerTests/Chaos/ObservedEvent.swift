import Foundation
import RabbitMQ

/// A result event as the chaos run's client received it.
struct ObservedEvent: Sendable {
    /// `cart.synced`, `cart.sync-rejected`, `order.placed` or `order.rejected`.
    let type: String
    let messageID: String
    /// The command's id.
    let correlationID: String
    let body: [UInt8]
    let arrival: ContinuousClock.Instant

    init(_ delivery: AMQPDelivery, arrival: ContinuousClock.Instant) {
        type = delivery.properties.type ?? ""
        messageID = delivery.properties.messageID ?? ""
        correlationID = delivery.properties.correlationID ?? ""
        body = delivery.body
        self.arrival = arrival
    }

    var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
    }

    /// The `reason` of a rejection.
    var reason: String? { json["reason"] as? String }
}
