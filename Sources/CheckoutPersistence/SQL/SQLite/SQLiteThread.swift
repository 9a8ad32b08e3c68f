import Foundation

/// A thread of its own for one SQLite connection, as a task executor: a task that prefers it runs its
/// statements inline, one call into the library each, with no hop to another thread and back.
///
/// Once stopped, it runs what was queued and exits; a job that still arrives runs on the global
/// concurrent executor, so a task that prefers this executor goes on.
final class SQLiteThread: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [UnownedJob] = []
    private var isStopping = false
    private var hasExited = false

    init(name: String) {
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        if hasExited {
            condition.unlock()
            globalConcurrentExecutor.enqueue(ExecutorJob(job))
            return
        }
        queue.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Lets the thread exit once its queue is empty.
    func stop() {
        condition.lock()
        isStopping = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        var jobs: [UnownedJob] = []
        while true {
            condition.lock()
            while queue.isEmpty && !isStopping {
                condition.wait()
            }
            if queue.isEmpty {
                hasExited = true
                condition.unlock()
                return
            }
            swap(&jobs, &queue)
            condition.unlock()
            for job in jobs {
                job.runSynchronously(on: asUnownedTaskExecutor())
            }
            jobs.removeAll(keepingCapacity: true)
        }
    }
}
