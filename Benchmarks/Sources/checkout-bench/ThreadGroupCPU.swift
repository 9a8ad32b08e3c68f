import Foundation

/// The CPU time of a process on all its threads: the sum of each thread's
/// `/proc/PID/task/TID/schedstat` (nanoseconds on the CPU).
///
/// `/proc/PID/schedstat` holds the main thread's time alone, and `/proc/PID/stat` counts in ticks of
/// 10 ms. A thread that ends between two readings takes its time with it, which for the long-lived
/// processes read here (the workers, RabbitMQ) is a rounding error.
enum ThreadGroupCPU {
    /// Nil once the process is gone, or where `/proc` does not show it.
    static func nanoseconds(pid: Int32) -> UInt64? {
        let tasks = "/proc/\(pid)/task"
        guard let threads = try? FileManager.default.contentsOfDirectory(atPath: tasks) else { return nil }
        return threads.reduce(0) { $0 + (ProcessStat.onCPUNanoseconds(schedstat: "\(tasks)/\($1)/schedstat") ?? 0) }
    }

    /// The CPU the processes used meanwhile, from a reading of each before and after; a process that
    /// could not be read either time counts nothing.
    static func nanoseconds(of pids: [Int32], before: [Int32: UInt64]) -> UInt64 {
        pids.reduce(0) { total, pid in
            guard let first = before[pid], let last = nanoseconds(pid: pid), last >= first else { return total }
            return total + (last - first)
        }
    }

    /// A reading of each process that can be read now.
    static func readings(of pids: [Int32]) -> [Int32: UInt64] {
        Dictionary(uniqueKeysWithValues: pids.compactMap { pid in nanoseconds(pid: pid).map { (pid, $0) } })
    }
}
