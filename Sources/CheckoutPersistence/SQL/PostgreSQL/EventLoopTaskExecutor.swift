import NIOCore

/// One SwiftNIO event loop as a task executor: a task that prefers it runs between the loop's own
/// work, on its thread, so a call to a connection of that loop writes, reads and decodes there.
final class EventLoopTaskExecutor: TaskExecutor {
    let loop: any EventLoop

    init(_ loop: any EventLoop) {
        self.loop = loop
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
