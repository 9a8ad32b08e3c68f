import Foundation

/// The CPU time of a PostgreSQL server on this host: its postmaster and every process it started
/// (backends, WAL writer, checkpointer, autovacuum), read from `/proc`.
///
/// Whatever else uses the server meanwhile counts too, and a process that ends between two samples
/// takes the CPU it used since the first one with it (a pool's idle connection closing).
struct PostgresServerCPU: Sendable {
    let postmaster: Int32

    /// Finds the server `url` names through the processes it lists in `pg_stat_activity` (a role
    /// that is no superuser sees their ids, not their types), all children of its postmaster; nil
    /// when the server runs where this host's `/proc` does not show it.
    static func locate(url: String, psql: String) async -> PostgresServerCPU? {
        let query = "SELECT pid FROM pg_stat_activity WHERE pid <> pg_backend_pid()"
        guard let output = try? await Subprocess.run(psql, [url, "-X", "-A", "-t", "-c", query]) else { return nil }
        let parents = output.split(whereSeparator: \.isNewline).compactMap { Int32($0) }
            .filter(isPostgres)
            .compactMap { ProcessStat.of(pid: $0)?.parentPID }
            .filter(isPostgres)
        guard let postmaster = parents.first, parents.allSatisfy({ $0 == postmaster }) else { return nil }
        return PostgresServerCPU(postmaster: postmaster)
    }

    /// CPU nanoseconds of the postmaster and of each of its children, by process id.
    func sample() -> [Int32: UInt64] {
        var sample: [Int32: UInt64] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(name), let stat = ProcessStat.of(pid: pid), pid == postmaster || stat.parentPID == postmaster else { continue }
            sample[pid] = stat.cpuNanoseconds
        }
        return sample
    }

    /// Microseconds of CPU used between two samples; a process missing from `before` started between them.
    static func microseconds(from before: [Int32: UInt64], to after: [Int32: UInt64]) -> Double {
        let nanoseconds = after.reduce(UInt64(0)) { total, process in
            total + process.value - min(before[process.key] ?? 0, process.value)
        }
        return Double(nanoseconds) / 1_000
    }

    private static func isPostgres(_ pid: Int32) -> Bool {
        (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.hasPrefix("postgres") == true
    }
}
