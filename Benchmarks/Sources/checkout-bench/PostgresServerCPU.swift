import Foundation

/// The CPU time of a PostgreSQL server on this host: its postmaster and every process it started
/// (backends, WAL writer, checkpointer, autovacuum), read from `/proc`.
///
/// A backend that ends between two samples is not lost: the postmaster waits for it, and the kernel
/// adds its time to the postmaster's children's. Whatever else uses the server meanwhile counts too.
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

    /// CPU nanoseconds the server has used so far: each live child's, then the postmaster's own and
    /// that of every child it has waited for. Only differences between two samples mean anything.
    func sample() -> UInt64 {
        var total: UInt64 = 0
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(name), pid != postmaster, let stat = ProcessStat.of(pid: pid), stat.parentPID == postmaster else {
                continue
            }
            total += stat.cpuNanoseconds
        }
        guard let own = ProcessStat.of(pid: postmaster) else { return total }
        return total + own.cpuNanoseconds + own.childrenCPUNanoseconds
    }

    private static func isPostgres(_ pid: Int32) -> Bool {
        (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.hasPrefix("postgres") == true
    }
}
