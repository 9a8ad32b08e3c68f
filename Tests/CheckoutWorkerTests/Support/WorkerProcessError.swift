/// A ``WorkerProcess`` that could not be started or did not do what a test waited for; the
/// description ends with the last lines the worker logged, which usually say why.
struct WorkerProcessError: Error, CustomStringConvertible {
    enum Code: Sendable {
        /// No `checkout-worker` executable was found.
        case executableNotFound
        /// The process exited before it did what was waited for.
        case exitedEarly
        /// What was waited for did not happen in time.
        case timedOut
    }

    let code: Code
    let context: String
    /// The worker's standard error when the error happened.
    var log: String = ""

    var description: String {
        let tail = log.split(separator: "\n").suffix(40).joined(separator: "\n")
        return tail.isEmpty ? context : "\(context); the worker's last log lines:\n\(tail)"
    }
}
