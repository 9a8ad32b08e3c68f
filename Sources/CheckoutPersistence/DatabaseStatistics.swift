import Synchronization

/// What the store counts of its database traffic, with atomics, for the worker to export as metrics:
/// the persistence layer knows nothing of metrics.
public final class DatabaseStatistics: Sendable {
    private let roundTripCount = Atomic<Int>(0)
    private let recompilationCount = Atomic<Int>(0)

    public init() {}

    /// Statements sent to the database, each one round trip: on PostgreSQL a message and its answer
    /// over the network, on SQLite a call into the library on the thread that owns the connection.
    /// `BEGIN`, `COMMIT` and savepoints count too, since they cost the same.
    public var roundTrips: Int { roundTripCount.load(ordering: .relaxed) }

    /// Times SQLite compiled a kept statement again before running it: after a change of the schema,
    /// or when its plan depended on a bound value that changed. Each costs about what the statement's
    /// first preparation cost, so in steady state it stays at 0.
    public var recompilations: Int { recompilationCount.load(ordering: .relaxed) }

    func countRoundTrip() {
        roundTripCount.add(1, ordering: .relaxed)
    }

    func countRecompilations(_ count: Int) {
        recompilationCount.add(count, ordering: .relaxed)
    }
}
