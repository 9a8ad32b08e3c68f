import CheckoutOperations
import Foundation
import Logging
import ServiceLifecycle

/// Ends the process when stopping takes longer than it may: the grace period, then `cancellationLimit`
/// for what was cancelled at its end.
///
/// Some waits end with neither: a thread inside a C call that cancellation does not reach (librabbitmq
/// trying broker nodes that accept and never answer, 10 s each; SQLite reading from a disk that
/// stopped), and whatever awaits that thread. The service group, with no bound of its own, would wait
/// for it; this says why at `error` and exits 1, and the broker hands back every command not acked.
///
/// Placed last among the services, it is the first told of a graceful shutdown, and starts counting
/// then; a group cancelled at once starts it with `cancellationLimit` alone. ``disarm()`` stops it
/// once the group has stopped: a process that goes on (the in-process tests) is not for it to end.
struct ShutdownDeadline: Service {
    private let gracePeriod: Duration
    private let cancellationLimit: Duration
    private let logger: Logger
    /// Signalled by ``disarm()``; waited on with the monotonic clock, which a wall-clock step does not move.
    private let disarmed = DispatchSemaphore(value: 0)

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
        Thread.detachNewThread { [disarmed, logger] in
            let seconds = Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18
            guard disarmed.wait(timeout: .now() + seconds) == .timedOut else { return }
            logger.error(
                """
                did not stop within \(limit.settingText) of being told to: something it waits for does not answer (a broker node, \
                the database's disk); exiting, and the broker hands back every command not acked
                """)
            LogSink.flushStandardError(within: .seconds(2))
            fflush(nil)
            // Not exit(): its handlers (OpenSSL's among them) would run while other threads still use them.
            _exit(1)
        }
    }

    /// The group has stopped: the deadline no longer ends the process.
    func disarm() {
        disarmed.signal()
    }
}
