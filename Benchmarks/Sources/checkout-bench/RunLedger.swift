import Foundation
import Histogram

/// One run's bookkeeping: when each command was published, and the latency of each answer.
///
/// Commands are numbered; a command's `message_id` is the run's prefix and its number, and the answer
/// carries it back as `correlation_id`, so matching costs a parse, not a dictionary of strings.
struct RunLedger: Sendable {
    let idPrefix: String
    /// The event type every answer must have (`nil` for the C loop, whose answers have none).
    let expectedType: String?
    private var publishedAt: [UInt64]
    private var answeredAlready: [Bool]
    /// Microseconds from publish to answer.
    private(set) var latencies = emptyLatencies
    private(set) var answered = 0
    private(set) var firstPublishedAt: UInt64 = 0
    private(set) var lastAnsweredAt: UInt64 = 0
    /// Answers other than `expectedType`, by type and reason: a benchmark of rejections measures the wrong thing.
    private(set) var unexpected: [String: Int] = [:]

    /// Microseconds up to ten minutes, at three significant digits.
    static var emptyLatencies: Histogram<UInt64> {
        Histogram(highestTrackableValue: 600_000_000, numberOfSignificantValueDigits: .three)
    }

    init(idPrefix: String, count: Int, expectedType: String?) {
        self.idPrefix = idPrefix
        self.expectedType = expectedType
        publishedAt = Array(repeating: 0, count: count)
        answeredAlready = Array(repeating: false, count: count)
    }

    var count: Int { publishedAt.count }

    func messageID(_ index: Int) -> String {
        idPrefix + String(index)
    }

    mutating func published(_ index: Int, at time: UInt64) {
        if firstPublishedAt == 0 { firstPublishedAt = time }
        publishedAt[index] = time
    }

    /// Counts an answer of this run once; answers of other runs and repeats are ignored.
    mutating func answer(correlationID: String?, type: String?, body: [UInt8], at time: UInt64) {
        guard let correlationID, correlationID.hasPrefix(idPrefix),
            let index = Int(correlationID.dropFirst(idPrefix.count)), publishedAt.indices.contains(index),
            publishedAt[index] != 0, !answeredAlready[index]
        else { return }
        answeredAlready[index] = true
        answered += 1
        lastAnsweredAt = max(lastAnsweredAt, time)
        _ = latencies.record((time - min(time, publishedAt[index])) / 1_000)
        if type != expectedType {
            let reason = (try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])?["reason"] as? String
            unexpected["\(type ?? "untyped")\(reason.map { " (\($0))" } ?? "")", default: 0] += 1
        }
    }
}
