/// What a handled `order.place` came to, stored under its command id so a repeat reports it again.
///
/// Codable so repositories can keep it as JSON; the case labels are part of that format.
public enum PlaceOrderOutcome: Hashable, Codable, Sendable {
    case placed(order: Order)
    case rejected(rejection: PlaceOrderRejection)
}
