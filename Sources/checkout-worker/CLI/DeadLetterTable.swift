import CheckoutMessaging
import Foundation

/// `dead-letters list` for people: one line per dead letter in fixed columns, so that lines can be
/// printed as they are read, whatever the size of the queue. A value wider than its column pushes the
/// rest of its line along rather than being cut, so that ids can be copied; only the detail is cut.
enum DeadLetterTable {
    private static let columns: [(title: String, width: Int)] = [
        ("POS", 5), ("ROUTING KEY", 14), ("REASON", 24), ("RETRIES", 7), ("MESSAGE ID", 36), ("AGE", 5), ("DETAIL", 60),
    ]

    static var header: String { line(columns.map(\.title)) }

    static func row(_ letter: DeadLetter, now: Date) -> String {
        line([
            "\(letter.position)",
            TerminalText.escaped(letter.routingKey),
            TerminalText.escaped(letter.reason ?? "-"),
            letter.retryCount.map { "\($0)" } ?? "-",
            TerminalText.escaped(letter.messageID ?? "-"),
            letter.deadLetteredAt.map { age(since: $0, now: now) } ?? "-",
            TerminalText.escaped((letter.detail ?? "").replacing(/\s+/, with: " ")),
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
        var fields = zip(values, columns).dropLast().map { value, column in
            value.count >= column.width ? value : value.padding(toLength: column.width, withPad: " ", startingAt: 0)
        }
        let detail = values[columns.count - 1]
        let width = columns[columns.count - 1].width
        fields.append(detail.count > width ? detail.prefix(width - 1) + "…" : detail)
        return fields.joined(separator: "  ")
    }
}
