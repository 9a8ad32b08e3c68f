import Foundation

/// An instant as ISO 8601 in UTC with milliseconds, computed without a formatter or a calendar.
///
/// `Date.ISO8601FormatStyle` allocates a formatter's worth per call; this is arithmetic on the
/// Unix time (days to a civil date as in Howard Hinnant's `civil_from_days`).
struct ISO8601Timestamp {
    let year: Int
    let month: Int
    let day: Int
    let hour: Int
    let minute: Int
    let second: Int
    let millisecond: Int

    init(_ date: Date) {
        // To the nearest microsecond first: an instant stored as whole milliseconds comes back a hair
        // below them, and must not lose its last millisecond to truncation.
        let microseconds = Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
        let milliseconds = Self.floorDivision(microseconds, 1000).quotient
        let (days, millisecondOfDay) = Self.floorDivision(milliseconds, 86_400_000)
        millisecond = Int(millisecondOfDay % 1000)
        second = Int(millisecondOfDay / 1000 % 60)
        minute = Int(millisecondOfDay / 60_000 % 60)
        hour = Int(millisecondOfDay / 3_600_000)
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        day = Int(dayOfYear - (153 * monthIndex + 2) / 5 + 1)
        month = Int(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9)
        year = Int(yearOfEra + era * 400 + (month <= 2 ? 1 : 0))
    }

    /// `2026-01-02T03:04:05.678Z`.
    func append(to bytes: inout [UInt8]) {
        func part(_ value: Int, digits: Int, then separator: Unicode.Scalar) {
            Self.append(value, digits: digits, to: &bytes)
            bytes.append(UInt8(ascii: separator))
        }
        part(year, digits: 4, then: "-")
        part(month, digits: 2, then: "-")
        part(day, digits: 2, then: "T")
        part(hour, digits: 2, then: ":")
        part(minute, digits: 2, then: ":")
        part(second, digits: 2, then: ".")
        part(millisecond, digits: 3, then: "Z")
    }

    private static func append(_ value: Int, digits: Int, to bytes: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<digits { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor % 10))
            rest %= divisor
            divisor /= 10
        }
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let remainder = value % divisor
        return remainder < 0 ? (value / divisor - 1, remainder + divisor) : (value / divisor, remainder)
    }
}
