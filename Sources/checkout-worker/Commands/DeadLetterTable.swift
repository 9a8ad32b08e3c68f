import CheckoutMessaging
import Foundation

/// `dead-letters list` for people: one line per dead letter in fixed columns, so that lines can be
/// printed as they are read, whatever the size of the queue.
enum DeadLetterTable {
    private static let columns: [(title: String, width: Int)] = [
        ("POS", 5), ("ROUTING KEY", 14), ("REASON", 24), ("RETRIES", 7), ("MESSAGE ID", 36), ("AGE", 5), ("DETAIL", 60),
    ]

    static var header: String { line(columns.map(\.title)) }

    static func row(_ letter: DeadLetter, now: Date) -> String {
        line([
            "\(letter.position)",
            letter.routingKey,
            letter.reason ?? "-",
            "\(letter.retryCount)",
            letter.messageID ?? "-",
            letter.deadLetteredAt.map { age(since: $0, now: now) } ?? "-",
            (letter.detail ?? "").replacing(/\s+/, with: " "),
        ])
    }

    /// How long ago, in the largest unit that fits: `42s`, `17m`, `5h`, `3d`.
    static func age(since date: Date, now: Date) -> String {
        let seconds = max(0, Int(now.timeIntervalSince(date)))
        switch seconds {
        case ..<60: return "\(seconds)s"
        case ..<3600: return "\(seconds / 60)m"
        case ..<(48 * 3600): return "\(seconds / 3600)h"
        default: return "\(seconds / 86400)d"
        }
    }

    private static func line(_ values: [String]) -> String {
        zip(values, columns).enumerated().map { index, column in
            let (value, (_, width)) = column
            let cut = value.count > width ? value.prefix(width - 1) + "…" : value
            return index == columns.count - 1 ? String(cut) : cut.padding(toLength: width, withPad: " ", startingAt: 0)
        }.joined(separator: "  ")
    }
}
