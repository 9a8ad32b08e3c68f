import Foundation

/// Resident memory of a process, from `/proc/PID/status`.
struct ProcessMemory: Sendable, Equatable {
    /// VmHWM: the most it ever held resident.
    var peakKiB: Int
    /// VmRSS: what it holds resident now.
    var currentKiB: Int

    static func of(pid: Int32) throws -> ProcessMemory {
        let path = "/proc/\(pid)/status"
        guard let status = try? String(contentsOfFile: path, encoding: .utf8), let memory = parse(status: status) else {
            throw BenchmarkError(message: "cannot read VmHWM and VmRSS from \(path)")
        }
        return memory
    }

    /// Reads the `VmHWM:` and `VmRSS:` lines (`VmHWM:     41236 kB`).
    static func parse(status: String) -> ProcessMemory? {
        var fields: [String: Int] = [:]
        for line in status.split(separator: "\n") {
            let parts = line.split(whereSeparator: { $0 == ":" || $0 == " " || $0 == "\t" })
            if parts.count >= 2, ["VmHWM", "VmRSS"].contains(parts[0]), let kiB = Int(parts[1]) {
                fields[String(parts[0])] = kiB
            }
        }
        guard let peak = fields["VmHWM"], let current = fields["VmRSS"] else { return nil }
        return ProcessMemory(peakKiB: peak, currentKiB: current)
    }
}
