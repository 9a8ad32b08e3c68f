import Synchronization

/// The faults of a chaos run, timed from its start.
final class FaultTimeline: Sendable {
    let start: ContinuousClock.Instant
    private let records = Mutex<[(name: String, start: ContinuousClock.Instant, end: ContinuousClock.Instant)]>([])

    init(start: ContinuousClock.Instant = .now) {
        self.start = start
    }

    /// Waits until `offset` after the run's start.
    func wait(until offset: Duration) async throws {
        try await Task.sleep(until: start + offset, clock: .continuous)
    }

    /// Runs `fault` (which returns once the fault is over: the node back, the proxy restored) and records it.
    @discardableResult
    func record<Result>(_ name: String, _ fault: () async throws -> Result) async throws -> Result {
        let begin = ContinuousClock.now
        print("[+\(begin - start)] fault: \(name)")
        let result = try await fault()
        let end = ContinuousClock.now
        print("[+\(end - start)] fault over: \(name)")
        records.withLock { $0.append((name, begin, end)) }
        return result
    }

    /// The faults in the order they happened, each with how long after it the next event arrived.
    func faults(eventArrivals: [ContinuousClock.Instant]) -> [FaultRecord] {
        let arrivals = eventArrivals.sorted()
        return records.withLock { $0 }.map { record in
            FaultRecord(
                name: record.name,
                start: record.start - start,
                end: record.end - start,
                eventsResumedAfter: arrivals.first { $0 >= record.end }.map { $0 - record.end }
            )
        }
    }
}
