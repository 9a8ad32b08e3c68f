import Foundation

/// What `/proc` tells of a process the benchmark does not own: its parent and the CPU it has used.
struct ProcessStat: Equatable {
    var parentPID: Int32
    /// User and system time, in nanoseconds.
    var cpuNanoseconds: UInt64

    /// From `/proc/PID/schedstat` (nanoseconds on the CPU), or `/proc/PID/stat` (utime + stime, in clock
    /// ticks of 10 ms) when the kernel keeps no schedstat; nil once the process has ended.
    static func of(pid: Int32) -> ProcessStat? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), var stat = parse(stat: text) else { return nil }
        if let schedstat = try? String(contentsOfFile: "/proc/\(pid)/schedstat", encoding: .utf8),
           let nanoseconds = schedstat.split(separator: " ").first.flatMap({ UInt64($0) }) {
            stat.cpuNanoseconds = nanoseconds
        }
        return stat
    }

    /// Reads a `/proc/PID/stat` line. The command name, field 2, is in parentheses and may hold spaces
    /// and parentheses of its own, so fields are counted from its last `)`.
    static func parse(stat: String, ticksPerSecond: Int = sysconf(Int32(_SC_CLK_TCK))) -> ProcessStat? {
        guard let end = stat.lastIndex(of: ")") else { return nil }
        // fields[0] is field 3 (state): ppid is field 4, utime 14, stime 15.
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        guard fields.count > 12, ticksPerSecond > 0, let parent = Int32(fields[1]), let user = UInt64(fields[11]), let system = UInt64(fields[12]) else {
            return nil
        }
        return ProcessStat(parentPID: parent, cpuNanoseconds: (user + system) * 1_000_000_000 / UInt64(ticksPerSecond))
    }
}
