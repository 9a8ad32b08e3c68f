import CheckoutObservability
import Synchronization

/// The faults of a chaos run, timed from its start, each with the evidence that it took effect.
final class FaultTimeline: Sendable {
    let start: ContinuousClock.Instant
    private let records = Mutex<[(name: String, start: ContinuousClock.Instant, end: ContinuousClock.Instant, evidence: String)]>([])
    /// Moves each fault by up to ``maximumJitterMilliseconds``, chosen by the run's seed.
    private let jitter: Mutex<SplitMix64>
    static let maximumJitterMilliseconds = 1500

    init(seed: ChaosSeed, start: ContinuousClock.Instant = .now) {
        self.start = start
        jitter = Mutex(seed.generator(0xFA))
    }

    /// Waits until `offset` after the run's start, plus the seed's jitter.
    func wait(until offset: Duration) async throws {
        let extra = Int64(jitter.withLock { $0.next() } % UInt64(Self.maximumJitterMilliseconds))
        try await Task.sleep(until: start + offset + .milliseconds(extra), clock: .continuous)
    }

    /// Runs `fault`, which returns once the fault is over (the node back, the proxy restored) with
    /// what confirmed that it took effect (having recorded an issue if nothing did), and records it.
    func record(_ name: String, _ fault: () async throws -> String) async throws {
        let begin = ContinuousClock.now
        print("[+\(begin - start)] fault: \(name)")
        let evidence = try await fault()
        let end = ContinuousClock.now
        print("[+\(end - start)] fault over: \(name): \(evidence)")
        records.withLock { $0.append((name, begin, end, evidence)) }
    }

    /// The faults in the order they happened, each with how long after it the next event arrived.
    func faults(eventArrivals: [ContinuousClock.Instant]) -> [FaultRecord] {
        let arrivals = eventArrivals.sorted()
        return records.withLock { $0 }.map { record in
            FaultRecord(
                name: record.name,
                start: record.start - start,
                end: record.end - start,
                evidence: record.evidence,
                eventsResumedAfter: arrivals.first { $0 >= record.end }.map { $0 - record.end }
            )
        }
    }
}
