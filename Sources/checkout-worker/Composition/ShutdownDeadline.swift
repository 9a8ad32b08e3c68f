import CheckoutOperations
import Foundation
import Logging
import ServiceLifecycle

/// Ends the process when stopping takes longer than it may: the grace period, then `cancellationLimit`
/// for what was cancelled at its end.
///
/// Some waits end with neither: a thread inside a C call that nothing interrupts (librabbitmq in the
/// handshake of a node that never answers, SQLite reading from a disk that stopped), and whatever
/// awaits that thread. The service group would end them with a `fatalError` and a backtrace; this
/// says why at `error` and exits 1, and the broker hands back every command not acked.
///
/// Placed last among the services, it is the first told of a graceful shutdown, and starts counting
/// then; a group cancelled at once starts it with `cancellationLimit` alone. ``disarm()`` stops it
/// once the group has stopped: a process that goes on (the in-process tests) is not for it to end.
final class ShutdownDeadline: Service, @unchecked Sendable {
    private let gracePeriod: Duration
    private let cancellationLimit: Duration
    private let logger: Logger
    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var isDisarmed = false

    init(gracePeriod: Duration, cancellationLimit: Duration, logger: Logger) {
        self.gracePeriod = gracePeriod
        self.cancellationLimit = cancellationLimit
        self.logger = logger
    }

    func run() async {
        let limit: Duration
        do {
            try await gracefulShutdown()
            limit = gracePeriod + cancellationLimit
        } catch {
            limit = cancellationLimit
        }
        // A thread, not a task: the task pool's threads may be among those held.
        Thread.detachNewThread { [self] in
            guard expires(after: limit) else { return }
            logger.error(
                """
                did not stop within \(limit.settingText) of being told to: something it waits for does not answer (a broker node, \
                the database's disk); exiting, and the broker hands back every command not acked
                """)
            LogSink.flushStandardError(within: .seconds(2))
            exit(1)
        }
    }

    /// The group has stopped: the deadline no longer ends the process.
    func disarm() {
        condition.lock()
        isDisarmed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits `limit` unless disarmed first; true when it was not.
    private func expires(after limit: Duration) -> Bool {
        let deadline = Date(timeIntervalSinceNow: Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18)
        condition.lock()
        defer { condition.unlock() }
        while !isDisarmed, condition.wait(until: deadline) {}
        return !isDisarmed
    }
}
