import Foundation
import RabbitMQ

/// A message on a command queue that is not a command, which the worker must dead-letter. Every
/// variant carries the `x-chaos-tag` header (the dead letter keeps it), since one has no `message_id`.
struct MalformedMessage: Sendable {
    enum Variant: Int, CaseIterable, Sendable {
        case notJSON, missingField, wrongType, noMessageID, notUTF8, headersTooDeep
    }

    static let tagHeader = "x-chaos-tag"

    let tag: String
    let variant: Variant

    init(tag: String, variant index: Int) {
        self.tag = tag
        variant = Variant(rawValue: index) ?? .notJSON
    }

    var routingKey: String { variant == .wrongType ? "order.place" : "cart.sync" }

    var messageID: String? { variant == .noMessageID ? nil : tag }

    /// The tag, and for ``Variant/headersTooDeep`` a valid command's headers nested past the worker's limit.
    var headers: AMQPFieldTable {
        var headers: AMQPFieldTable = [Self.tagHeader: .string(tag)]
        if variant == .headersTooDeep {
            var value: AMQPFieldValue = .string("bottom")
            for _ in 0..<(AMQPDelivery.maximumHeaderDepth + 8) { value = .table(["deeper": value]) }
            headers["x-chaos-nested"] = value
        }
        return headers
    }

    var body: [UInt8] {
        switch variant {
        case .notJSON: Array("{\"cartId\": \"cart-1\", ".utf8)
        case .missingField: Array(#"{"customerId":"cust-1","baseVersion":0,"currency":"EUR","items":[]}"#.utf8)
        case .wrongType:
            Array(
                #"{"cartId":"cart-1","customerId":"cust-1","cartVersion":"one","expectedTotal":100,"currency":"EUR","payment":{"token":"tok_visa"}}"#
                    .utf8)
        case .noMessageID, .headersTooDeep:
            Array(#"{"cartId":"cart-1","customerId":"cust-1","baseVersion":0,"currency":"EUR","items":[]}"#.utf8)
        case .notUTF8: [0x7B, 0x22, 0xFF, 0xFE, 0x22, 0x3A, 0x31, 0x7D]
        }
    }
}
