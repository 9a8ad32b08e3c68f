import Foundation
import Histogram

/// The percentiles the issue asks for, from a histogram of microseconds, in milliseconds.
struct LatencySummary: Sendable, Equatable {
    var p50: Double
    var p99: Double
    var p999: Double
    var count: UInt64

    init(p50: Double, p99: Double, p999: Double, count: UInt64) {
        self.p50 = p50
        self.p99 = p99
        self.p999 = p999
        self.count = count
    }

    init(microseconds histogram: Histogram<UInt64>) {
        self.init(
            p50: Double(histogram.valueAtPercentile(50)) / 1_000,
            p99: Double(histogram.valueAtPercentile(99)) / 1_000,
            p999: Double(histogram.valueAtPercentile(99.9)) / 1_000,
            count: histogram.totalCount
        )
    }

    /// `p50 1.23 ms, p99 4.56 ms, p99.9 7.89 ms` for progress lines.
    var sentence: String {
        "p50 \(Self.milliseconds(p50)) ms, p99 \(Self.milliseconds(p99)) ms, p99.9 \(Self.milliseconds(p999)) ms"
    }

    /// Two decimals below 10 ms, one below 100 ms, none above: the digits the noise leaves meaningful.
    static func milliseconds(_ value: Double) -> String {
        switch value {
        case ..<10: String(format: "%.2f", value)
        case ..<100: String(format: "%.1f", value)
        default: String(format: "%.0f", value)
        }
    }
}
