import Foundation

/// The CPU time of a PostgreSQL server on this host: its postmaster and every process it started
/// (backends, WAL writer, checkpointer, autovacuum), read from `/proc`.
///
/// Each process's own time is read every ``interval`` while the work runs (``ProcessCPUTally``), so a
/// backend that ends meanwhile, as each of pgbench's does, counts up to its last reading. Whatever
/// else uses the server meanwhile counts too.
struct PostgresServerCPU: Sendable {
    let postmaster: Int32
    /// Often enough that an ended backend's last stretch is a small part of a round of seconds;
    /// a reading is a few dozen small files.
    static let interval: Duration = .milliseconds(20)

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

    /// What `work` returns and the server's CPU nanoseconds meanwhile.
    func measuring<Value>(_ work: () async throws -> Value) async throws -> (Value, nanoseconds: UInt64) {
        var first = ProcessCPUTally()
        first.observe(readings())
        let sampler = Task { [first] in
            var tally = first
            while (try? await Task.sleep(for: Self.interval)) != nil {
                tally.observe(readings())
            }
            tally.observe(readings())
            return tally
        }
        defer { sampler.cancel() }
        let value = try await work()
        sampler.cancel()
        return (value, await sampler.value.nanoseconds)
    }

    /// CPU nanoseconds so far of the postmaster and of each process it started, by process id.
    private func readings() -> [Int32: UInt64] {
        var readings: [Int32: UInt64] = [:]
        for pid in [postmaster] + children() {
            guard let stat = ProcessStat.of(pid: pid) else { continue }
            guard pid == postmaster || stat.parentPID == postmaster else { continue }
            readings[pid] = stat.cpuNanoseconds
        }
        return readings
    }

    /// The postmaster's children from `/proc/PID/task/PID/children`, else from a scan of `/proc`.
    private func children() -> [Int32] {
        if let listed = try? String(contentsOfFile: "/proc/\(postmaster)/task/\(postmaster)/children", encoding: .utf8) {
            return listed.split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        return ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap(Int32.init)
            .filter { $0 != postmaster }
    }

    private static func isPostgres(_ pid: Int32) -> Bool {
        (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.hasPrefix("postgres") == true
    }
}
