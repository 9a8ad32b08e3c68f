public import struct Foundation.Date

/// An AMQP timestamp: whole seconds since 1970 in the wire's unsigned 64 bits, kept exactly.
///
/// A client may send any value, up to `UInt64.max`; keeping the integer (not a `Date`, whose `Double`
/// loses it past 2^53) re-publishes such a message unchanged and never traps converting it back.
public struct AMQPTimestamp: Sendable, Hashable, Comparable {
    public var secondsSince1970: UInt64

    public init(secondsSince1970: UInt64) {
        self.secondsSince1970 = secondsSince1970
    }

    /// `date` to the whole second below it, clamped to the wire's range (dates before 1970 become 0).
    public init(_ date: Date) {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        secondsSince1970 = seconds.isNaN || seconds <= 0 ? 0 : UInt64(exactly: seconds) ?? .max
    }

    public var date: Date { Date(timeIntervalSince1970: Double(secondsSince1970)) }

    public static func < (lhs: AMQPTimestamp, rhs: AMQPTimestamp) -> Bool {
        lhs.secondsSince1970 < rhs.secondsSince1970
    }
}
