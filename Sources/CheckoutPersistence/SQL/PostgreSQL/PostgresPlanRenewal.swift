/// When a PostgreSQL connection drops its plans (`DISCARD PLANS`), so that PostgreSQL plans its
/// statements again for the tables as they are now.
///
/// PostgreSQL keeps a prepared statement's generic plan until `ANALYZE` changes the statistics of a
/// table it reads, and on a new database autoanalyze first passes up to a minute after the first
/// rows. A plan made while `carts` or `processed_commands` held a few pages (a hash join over a
/// sequential scan) would scan the whole table for every batch as the table grows. Renewed when the
/// connection's age doubles, a plan is used while its tables grow at most about twofold at a steady
/// rate; past ``longestInterval``, at that period, each renewal costs PostgreSQL one planning of each
/// statement the connection runs.
struct PostgresPlanRenewal {
    static let longestInterval = Duration.seconds(64)

    private let opened: ContinuousClock.Instant
    private var due: ContinuousClock.Instant

    /// For a connection opened at `opened`, first due `firstInterval` later.
    init(opened: ContinuousClock.Instant, firstInterval: Duration = .seconds(1)) {
        self.opened = opened
        due = opened.advanced(by: firstInterval)
    }

    /// Whether the plans are due for renewal at `now`; if so, the next renewal is scheduled as if
    /// they were renewed now.
    mutating func isDue(at now: ContinuousClock.Instant) -> Bool {
        guard now >= due else { return false }
        due = now.advanced(by: min(opened.duration(to: now), Self.longestInterval))
        return true
    }
}
