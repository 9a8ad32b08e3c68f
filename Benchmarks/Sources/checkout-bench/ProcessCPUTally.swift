/// The CPU time a changing set of processes used between a first and a last reading, from readings
/// of each process's own time taken while it lives.
///
/// A process that ends keeps the time of its last reading: what it used after that is lost, so
/// readings are taken often. One that starts between readings counts from zero. The kernel's
/// account of ended children (`cutime`) is not used: it is kept in 10 ms ticks, which miss most
/// of a backend that wakes for 50 µs at a time (pgbench's backends read 47 µs per transaction by
/// ticks where `schedstat` read 180).
struct ProcessCPUTally {
    private var hasReadings = false
    /// Per process, its reading when it came into view (zero unless it was there at the first reading) and its latest.
    private var processes: [Int32: (first: UInt64, last: UInt64)] = [:]
    /// Time of processes whose id has since been given to another.
    private var ended: UInt64 = 0

    /// Takes one reading: CPU nanoseconds so far, per process id.
    mutating func observe(_ readings: [Int32: UInt64]) {
        let isFirst = !hasReadings
        hasReadings = true
        for (pid, nanoseconds) in readings {
            guard let known = processes[pid] else {
                processes[pid] = (isFirst ? nanoseconds : 0, nanoseconds)
                continue
            }
            if nanoseconds < known.last {
                // A smaller reading is a new process under an id that was freed.
                ended += known.last - known.first
                processes[pid] = (0, nanoseconds)
            } else {
                processes[pid] = (known.first, nanoseconds)
            }
        }
    }

    /// Nanoseconds used between the first reading and the latest.
    var nanoseconds: UInt64 {
        processes.values.reduce(ended) { $0 + ($1.last - $1.first) }
    }
}
