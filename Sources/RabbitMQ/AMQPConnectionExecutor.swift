/// The task executor of ``AMQPConnection/executor``: jobs go to the connection's thread as commands.
///
/// Once the connection is closed its thread is gone, and jobs run on the global concurrent executor, so a
/// task that still prefers this executor goes on.
final class AMQPConnectionExecutor: TaskExecutor {
    private let driver: AMQPConnectionDriver

    init(driver: AMQPConnectionDriver) {
        self.driver = driver
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        if !driver.submit(.run(job, on: asUnownedTaskExecutor())) {
            globalConcurrentExecutor.enqueue(ExecutorJob(job))
        }
    }
}
