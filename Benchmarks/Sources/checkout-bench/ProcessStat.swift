import Foundation

/// What `/proc` tells of a process the benchmark does not own: its parent and the CPU it has used.
struct ProcessStat: Equatable {
    var parentPID: Int32
    /// User and system time, in nanoseconds.
    var cpuNanoseconds: UInt64

    /// From `/proc/PID/stat`, with the process's own time from `/proc/PID/schedstat` (nanoseconds on the
    /// CPU) rather than in clock ticks of 10 ms when the kernel keeps it; nil once the process is gone.
    static func of(pid: Int32) -> ProcessStat? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), var stat = parse(stat: text) else { return nil }
        if let nanoseconds = onCPUNanoseconds(schedstat: "/proc/\(pid)/schedstat") {
            stat.cpuNanoseconds = nanoseconds
        }
        return stat
    }

    /// The first field of a `schedstat` file (`/proc/PID/schedstat` or `/proc/PID/task/TID/schedstat`):
    /// nanoseconds that task has run on a CPU; nil when it cannot be read.
    static func onCPUNanoseconds(schedstat path: String) -> UInt64? {
        (try? String(contentsOfFile: path, encoding: .utf8))?.split(separator: " ").first.flatMap { UInt64($0) }
    }

    /// Reads a `/proc/PID/stat` line. The command name, field 2, is in parentheses and may hold spaces
    /// and parentheses of its own, so fields are counted from its last `)`.
    static func parse(stat: String, ticksPerSecond: Int = sysconf(Int32(_SC_CLK_TCK))) -> ProcessStat? {
        guard let end = stat.lastIndex(of: ")"), ticksPerSecond > 0 else { return nil }
        // fields[0] is field 3 (state): ppid is field 4, utime 14, stime 15.
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        guard fields.count > 12, let parent = Int32(fields[1]) else { return nil }
        let ticks = fields[11...12].compactMap { UInt64($0) }
        guard ticks.count == 2 else { return nil }
        return ProcessStat(parentPID: parent, cpuNanoseconds: (ticks[0] + ticks[1]) * (1_000_000_000 / UInt64(ticksPerSecond)))
    }
}
