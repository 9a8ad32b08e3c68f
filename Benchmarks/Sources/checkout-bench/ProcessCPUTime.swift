import Foundation

/// CPU time this process has used, on all its threads (CLOCK_PROCESS_CPUTIME_ID).
///
/// Throughput on a shared 2-core machine moves with its neighbours; the CPU a loop spends per message
/// moves far less, so it shows what a change in the client saves.
enum ProcessCPUTime {
    static func seconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
