import Foundation

/// Nanoseconds on CLOCK_MONOTONIC, the clock the C loop measures with: cheap enough to stamp every
/// command and every answer.
enum MonotonicClock {
    static func nanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}
