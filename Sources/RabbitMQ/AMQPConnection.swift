public import Logging
public import ServiceLifecycle
import Synchronization

/// A recovering RabbitMQ connection: declare, publish with confirms, and consume with manual acks.
///
/// One connection serves a whole process. After a lost connection or a channel closed by the broker it
/// reconnects (trying each configured node in turn, with capped exponential backoff and jitter),
/// re-declares everything declared so far and resumes every consumer. Operations in flight during a loss
/// fail with a retryable ``AMQPError``; none hangs.
///
/// As a `Service` of a service group it connects when the group starts and closes when the group
/// stops it; code without a group uses ``connect(_:logger:onReconnect:)`` and ``close()``.
public final class AMQPConnection: Service {
    private let driver: AMQPConnectionDriver
    /// How the first connection went, once it did, and who waits for it meanwhile (by a number each,
    /// so that a waiter cancelled can leave).
    private let firstConnection = Mutex<FirstConnection>(FirstConnection())

    private struct FirstConnection {
        var result: Result<Void, any Error>?
        var waiters: [Int: CheckedContinuation<Void, any Error>] = [:]
        var nextWaiter = 0
    }

    /// Runs tasks on the connection's own thread, between its frames.
    ///
    /// A task that mostly waits on the transport (receive a delivery, publish, await the confirm, ack) and
    /// prefers this executor, `Task(executorPreference: connection.executor)`, never changes threads: the
    /// delivery, its publish, the confirm that resumes it and its ack are all handled where librabbitmq
    /// runs. Keep blocking calls and long computations off it: while a job runs, no frame is read.
    public let executor: any TaskExecutor

    /// A connection that connects once ``run()`` runs.
    ///
    /// - Parameter onReconnect: Called each time the connection is recovered after a loss, once the
    ///   topology is re-declared and the consumers resumed (for a metric). It runs on the connection's
    ///   own thread, so it must return at once.
    public init(
        _ configuration: AMQPConfiguration,
        logger: Logger = Logger(label: "rabbitmq"),
        onReconnect: @escaping @Sendable () -> Void = {}
    ) {
        driver = AMQPConnectionDriver(configuration: configuration, logger: logger, onReconnect: onReconnect)
        executor = AMQPConnectionExecutor(driver: driver)
    }

    /// Connects to the first node that answers; throws the last node's error when none does.
    public static func connect(
        _ configuration: AMQPConfiguration,
        logger: Logger = Logger(label: "rabbitmq"),
        onReconnect: @escaping @Sendable () -> Void = {}
    ) async throws -> AMQPConnection {
        let connection = AMQPConnection(configuration, logger: logger, onReconnect: onReconnect)
        try await connection.start(waitingForTheBroker: false)
        return connection
    }

    /// Connects, waiting for the broker for as long as it takes: a node that refuses the connection or
    /// does not answer is tried again with the reconnect backoff, as in recovery, so that a worker started
    /// before its broker comes up on its own. Refused credentials, an unknown virtual host, a TLS or a
    /// topology error throw at once. Then keeps the connection, recovering it, until graceful shutdown or
    /// cancellation, and closes it; a graceful shutdown while it still waits ends the wait.
    public func run() async throws {
        do {
            try await withGracefulShutdownHandler {
                try await start(waitingForTheBroker: true)
            } onGracefulShutdown: {
                Task { await self.close() }
            }
        } catch let error as AMQPError where error.code == .closed {
            return
        }
        try? await gracefulShutdown()
        await close()
    }

    /// Returns once ``run()`` made the first connection; throws the error it failed with, or
    /// `CancellationError` when the task waiting is cancelled first.
    public func connected() async throws {
        let waiter = firstConnection.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                // Checked under the lock that `onCancel` takes, so that a cancellation cannot slip between.
                let result = firstConnection.withLock { state -> Result<Void, any Error>? in
                    if let result = state.result { return result }
                    if Task.isCancelled { return .failure(CancellationError()) }
                    state.waiters[waiter] = continuation
                    return nil
                }
                if let result { continuation.resume(with: result) }
            }
        } onCancel: {
            firstConnection.withLock { $0.waiters.removeValue(forKey: waiter) }?.resume(throwing: CancellationError())
        }
    }

    private func start(waitingForTheBroker: Bool) async throws {
        let result: Result<Void, any Error>
        do {
            try await driver.start(waitingForTheBroker: waitingForTheBroker)
            result = .success(())
        } catch {
            result = .failure(error)
        }
        let waiters = firstConnection.withLock { state in
            state.result = result
            defer { state.waiters.removeAll() }
            return state.waiters.values
        }
        for waiter in waiters { waiter.resume(with: result) }
        try result.get()
    }

    public var isConnected: Bool { driver.isConnected }
    /// Whether the broker has blocked this connection's publishes (connection.blocked: a memory or disk
    /// alarm); they wait, up to the confirm timeout, until it unblocks them.
    public var isBlocked: Bool { driver.isBlocked }
    /// How long the connection's thread has been in its current pass: about a second at most while it
    /// serves the connection, growing while a C call or a task run on ``executor`` holds it; zero when
    /// it is not running.
    public var stalledFor: Duration { driver.stalledFor }
    /// How long a pass may last before the connection's watchdog shuts its socket down to free the thread.
    public var stallLimit: Duration { driver.stallLimit }
    /// The most ``AMQPProperties/encodedByteCount`` a publish may have; a larger one fails with `protocolError`.
    public var maximumPropertiesByteCount: Int { driver.maximumPropertiesByteCount }
    public var statistics: AMQPConnectionStatistics { driver.statistics }

    /// Declares exchanges, queues and bindings, and remembers them for recovery.
    public func declare(_ topology: AMQPTopology) async throws {
        try await withCheckedThrowingContinuation { continuation in
            submit(.declare(topology, continuation), orFail: continuation)
        }
    }

    /// Publishes and returns once the broker confirmed the message (it is then the broker's responsibility).
    ///
    /// Throws ``AMQPError/Code/publishNacked``, ``AMQPError/Code/unroutable`` (mandatory messages), or a
    /// retryable error when the connection was lost before the confirm arrived or the confirm took longer
    /// than ``AMQPConfiguration/confirmTimeout``. Many publishes may await their confirms at once. While
    /// the broker blocks publishing (a resource alarm), this waits, up to the same timeout.
    public func publish(_ message: AMQPMessage) async throws {
        try await withCheckedThrowingContinuation { continuation in
            submit(.publish(message, continuation), orFail: continuation)
        }
    }

    /// Subscribes to a queue with at most `prefetch` unsettled deliveries; the subscription survives recovery.
    ///
    /// - Parameter maximumBodyBytes: A delivery keeps at most this many bytes of its body (see
    ///   ``AMQPDelivery/bodySize``), so that a huge message costs no more memory than a large one.
    public func consume(queue: String, prefetch: UInt16, maximumBodyBytes: Int = .max) async throws -> AMQPConsumer {
        let buffer = AMQPDeliveryBuffer()
        let id = try await withCheckedThrowingContinuation { continuation in
            submit(
                .consume(queue: queue, prefetch: prefetch, maximumBodyBytes: maximumBodyBytes, buffer, continuation), orFail: continuation)
        }
        let driver = self.driver
        buffer.onTermination { unconsumed in
            // Cancelled first, so that the broker does not hand the returned deliveries straight back to it.
            driver.submit(.cancelConsumer(id))
            for delivery in unconsumed { delivery.reject(requeue: true) }
        }
        return AMQPConsumer(queue: queue, buffer: buffer)
    }

    /// Opens a reader that takes a queue's messages one by one (basic.get) without consuming it.
    public func openReader(queue: String) async throws -> AMQPQueueReader {
        let id = try await withCheckedThrowingContinuation { continuation in
            submit(.openReader(queue: queue, continuation), orFail: continuation)
        }
        return AMQPQueueReader(queue: queue, id: id, driver: driver)
    }

    /// Whether the queue exists with the properties and arguments `queue` declares: RabbitMQ refuses a
    /// declare that differs from the queue it has. Nil when the user may not configure the queue, which
    /// a declare needs. Throws (404) when there is no such queue, and creates none.
    public func queueMatches(_ queue: AMQPTopology.Queue) async throws -> Bool? {
        switch AMQPConnectionDriver.QueueMatch(rawValue: try await queueOperation(.matches(queue))) {
        case .matches: true
        case .differs: false
        case .refused, nil: nil
        }
    }

    /// Removes every message from a queue; returns how many there were.
    @discardableResult
    public func purgeQueue(_ name: String) async throws -> Int {
        Int(try await queueOperation(.purge(name)))
    }

    @discardableResult
    public func deleteQueue(_ name: String) async throws -> Int {
        Int(try await queueOperation(.deleteQueue(name)))
    }

    public func deleteExchange(_ name: String) async throws {
        _ = try await queueOperation(.deleteExchange(name))
    }

    /// Flushes pending acks, closes the connection (the broker requeues what is unacked) and stops recovery.
    public func close() async {
        await withCheckedContinuation { continuation in
            if !driver.submit(.close(continuation)) { continuation.resume() }
        }
    }

    private func queueOperation(_ operation: AMQPConnectionDriver.QueueOperation) async throws -> UInt32 {
        try await withCheckedThrowingContinuation { continuation in
            submit(.queueOperation(operation, continuation), orFail: continuation)
        }
    }

    private func submit<Value>(_ command: AMQPConnectionDriver.Command, orFail continuation: CheckedContinuation<Value, any Error>) {
        guard !driver.submit(command) else { return }
        continuation.resume(throwing: AMQPError.closedByApplication)
    }
}
