import CheckoutMessaging
import Foundation

/// `dead-letters list --json`: one JSON object per line, every key always present (null when unknown),
/// so that scripts can rely on the shape.
struct DeadLetterJSONLine: Encodable {
    let position: Int
    let messageId: String?
    let routingKey: String
    let reason: String?
    let detail: String?
    let retryCount: Int?
    /// ISO 8601, UTC.
    let deadLetteredAt: String?
    let ageSeconds: Int?

    init(_ letter: DeadLetter, now: Date) {
        position = letter.position
        messageId = letter.messageID
        routingKey = letter.routingKey
        reason = letter.reason
        detail = letter.detail
        retryCount = letter.retryCount
        deadLetteredAt = letter.deadLetteredAt.map { $0.formatted(.iso8601) }
        ageSeconds = letter.deadLetteredAt.map { max(0, Int(now.timeIntervalSince($0))) }
    }

    private enum CodingKeys: String, CodingKey {
        case position, messageId, routingKey, reason, detail, retryCount, deadLetteredAt, ageSeconds
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(position, forKey: .position)
        try container.encode(messageId, forKey: .messageId)
        try container.encode(routingKey, forKey: .routingKey)
        try container.encode(reason, forKey: .reason)
        try container.encode(detail, forKey: .detail)
        try container.encode(retryCount, forKey: .retryCount)
        try container.encode(deadLetteredAt, forKey: .deadLetteredAt)
        try container.encode(ageSeconds, forKey: .ageSeconds)
    }

    func text() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
