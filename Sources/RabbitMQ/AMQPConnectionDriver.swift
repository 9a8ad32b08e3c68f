import Foundation
import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs one broker connection on a thread of its own: the loop, the inbox of commands, and the
/// dispatch of each command according to the connection's state (``AMQPConnectionStateMachine``).
///
/// librabbitmq is not thread-safe, so every call (all in ``AMQPWire``) runs on this driver's thread.
/// That thread polls the socket and a wake-up pipe itself and only ever asks librabbitmq for frames with
/// a zero timeout, which keeps it clear of the library's blocking waits (the infinite `amqp_try_recv` of
/// #780/#788 and the `amqp_abort` of #563). Synchronous methods (declare, qos, consume) are sent and
/// their replies matched here, so frames of other channels keep flowing meanwhile. A watchdog thread
/// shuts the socket down if a C call ever stalls the loop, so that a hang becomes a recoverable
/// connection loss. Connecting and channels are in `AMQPConnectionDriver+Connecting.swift`, consuming
/// and frames in `+Consuming.swift`, publishing in `+Publishing.swift`, basic.get in
/// `AMQPQueueReaders.swift`.
///
/// `@unchecked Sendable` is safe because the mutable state below `inbox` is touched only by the driver's
/// thread; other threads reach it solely through `inbox` (a `Mutex`), the wake-up pipe and atomics.
final class AMQPConnectionDriver: @unchecked Sendable, AMQPDeliverySettling {
    typealias Reply<Value> = CheckedContinuation<Value, any Error>

    enum Command {
        case declare(AMQPTopology, Reply<Void>)
        /// `deadline` is kept when a publish held during a resource alarm is submitted again.
        case publish(AMQPMessage, Reply<Void>, deadline: UInt64? = nil)
        case consume(queue: String, prefetch: UInt16, maximumBodyBytes: Int, AMQPDeliveryBuffer, Reply<Int>)
        case cancelConsumer(Int)
        case settle(consumerID: Int, generation: UInt64, deliveryTag: UInt64, AMQPSettlement)
        case queueOperation(QueueOperation, Reply<UInt32>)
        case openReader(queue: String, Reply<Int>)
        case read(readerID: Int, Reply<AMQPQueueReader.Message?>)
        case closeReader(Int, Reply<Void>)
        case close(CheckedContinuation<Void, Never>)
        /// A job of a task that prefers ``AMQPConnection/executor``: run on this thread, between frames.
        case run(UnownedJob, on: UnownedTaskExecutor)
    }

    enum QueueOperation {
        /// Answers a ``QueueMatch``'s raw value.
        case matches(AMQPTopology.Queue)
        case purge(String)
        case deleteQueue(String)
        case deleteExchange(String)
    }

    private struct Inbox {
        var commands: [Command] = []
        var isFinished = false
        /// The driver is (about to be) asleep in poll(2): the next submitter writes to the wake-up pipe.
        var driverIsAsleep = false
    }

    /// What a declare said of an existing queue, as a queue operation's answer.
    enum QueueMatch: UInt32 {
        case differs
        case matches
        /// The user may not declare it.
        case refused
    }

    enum RPCResult {
        case ok
        case messageCount(UInt32)
    }

    struct RPCWait {
        let channel: UInt16
        let expected: UInt32
        var result: RPCResult?
        var error: AMQPError?
    }

    static let controlChannel: UInt16 = 1
    static let publishChannel: UInt16 = 2
    static let frameMax: Int32 = 131_072
    /// The reply code of a channel closed for a queue or exchange that does not exist.
    static let notFound = 404
    static let rpcTimeout: Duration = .seconds(30)
    /// How many times an iteration takes the inbox again before it reads the socket.
    static let passesPerIteration = 4
    /// librabbitmq decodes nested header tables recursively, with no depth limit in 0.11: a content header
    /// of one frame can nest about 18,000 levels, a few MiB of C stack. Reserved, not committed, memory.
    static let threadStackBytes = 64 << 20
    /// The OS name of every driver thread (at most 15 characters on Linux).
    static let threadName = "amqp-driver"

    let configuration: AMQPConfiguration
    let statistics = AMQPConnectionStatistics()
    let logger: Logger
    let onReconnect: @Sendable () -> Void
    private let inbox = Mutex(Inbox())
    private let wakeReader: Int32
    private let wakeWriter: Int32
    let loopTick = Atomic<UInt64>(0)
    let socketDescriptor = Atomic<Int32>(-1)
    let connected = Atomic<Bool>(false)
    /// The state machine's `isBlocked`, for other threads.
    let blocked = Atomic<Bool>(false)
    let negotiatedFrameMax = Atomic<Int>(Int(AMQPConnectionDriver.frameMax))

    // Driver-thread state.
    var stateMachine = AMQPConnectionStateMachine<AMQPWire>()
    /// The connection, while there is one; see ``AMQPConnectionStateMachine``.
    var connection: AMQPWire? { stateMachine.connection }
    var topology = AMQPTopology()
    var consumers: [Int: Consumer] = [:]
    var readers: [Int: Reader] = [:]
    /// Numbers consumers and readers alike; each gets channel `publishChannel + id`.
    var nextConsumerID = 1
    var nextChannelGeneration: UInt64 = 1
    var openChannels: Set<UInt16> = []
    var channelsToRepair: Set<UInt16> = []
    var confirms = PublisherConfirmTracker<Reply<Void>>()
    /// Publishes held while the broker blocks publishing, with the deadlines of their confirms.
    var publishesWhileBlocked: [(AMQPMessage, Reply<Void>, deadline: UInt64)] = []
    var contents: [UInt16: ContentInProgress] = [:]
    /// Publishes gathered during a pass over the commands, written at its end; see ``AMQPWriteBuffer``.
    var writeBuffer = AMQPWriteBuffer()
    var rpcWait: RPCWait?
    let arena = AMQPCArena()
    /// Whether the socket may hold unread frames; reading an empty socket costs librabbitmq two syscalls.
    var socketMayBeReadable = true
    var lastReadAt: UInt64 = 0
    private var pollDescriptors: [pollfd] = []
    private var drainBuffer = [UInt8](repeating: 0, count: 256)

    init(configuration: AMQPConfiguration, logger: Logger, onReconnect: @escaping @Sendable () -> Void) {
        self.configuration = configuration
        self.logger = logger
        self.onReconnect = onReconnect
        var descriptors: [Int32] = [-1, -1]
        precondition(pipe(&descriptors) == 0, "pipe() failed: \(errno)")
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        wakeReader = descriptors[0]
        wakeWriter = descriptors[1]
    }

    deinit {
        close(wakeReader)
        close(wakeWriter)
    }

    var isConnected: Bool { connected.load(ordering: .relaxed) }
    var isBlocked: Bool { blocked.load(ordering: .relaxed) }

    /// The largest properties a publish can carry: a content header is one frame (8 bytes of framing,
    /// 14 of class, weight, body size and flags).
    var maximumPropertiesByteCount: Int { negotiatedFrameMax.load(ordering: .relaxed) - 8 - 14 }

    /// Starts the driver's thread and returns once connected. It throws when the first round of attempts
    /// fails, or, `waitingForTheBroker`, only when a failure never passes (refused credentials, a TLS or
    /// topology error) or the connection is closed meanwhile; rounds that may pass are retried with the
    /// reconnect backoff.
    func start(waitingForTheBroker: Bool) async throws {
        try await withCheckedThrowingContinuation { (continuation: Reply<Void>) in
            stateMachine.starting(continuation, waitingForTheBroker: waitingForTheBroker)
            let loop = Thread { [self] in run() }
            loop.name = "amqp-\(configuration.connectionName)"
            loop.stackSize = Self.threadStackBytes
            loop.start()
            let watchdog = Thread { [self] in watch() }
            watchdog.name = "amqp-watchdog"
            watchdog.start()
        }
    }

    /// Queues a command for the driver's thread; false when the driver has already finished.
    @discardableResult
    func submit(_ command: Command) -> Bool {
        let (accepted, needsWake) = inbox.withLock { inbox -> (Bool, Bool) in
            guard !inbox.isFinished else { return (false, false) }
            inbox.commands.append(command)
            let needsWake = inbox.driverIsAsleep
            inbox.driverIsAsleep = false
            return (true, needsWake)
        }
        if needsWake { wake() }
        return accepted
    }

    func settle(_ delivery: AMQPDelivery, as settlement: AMQPSettlement) {
        submit(
            .settle(
                consumerID: delivery.consumerID, generation: delivery.channelGeneration,
                deliveryTag: delivery.deliveryTag, settlement))
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWriter, &byte, 1)
    }

    // MARK: - The loop

    private func run() {
        #if os(Linux)
        // Foundation does not pass `Thread.name` on to Linux, where `top -H` and debuggers read it from here.
        try? Self.threadName.write(toFile: "/proc/thread-self/comm", atomically: false, encoding: .utf8)
        #endif
        while !stateMachine.isFinished {
            loopTick.store(Self.monotonicNanoseconds(), ordering: .relaxed)
            if stateMachine.admission != .run {
                runDisconnected()
            } else {
                do {
                    try runConnectedIteration()
                } catch {
                    tearDown(because: error)
                }
            }
        }
        loopTick.store(0, ordering: .relaxed)
    }

    private func runConnectedIteration() throws(AMQPError) {
        // Commands that the commands of a pass submit (a task run here publishes, a resumed task acks) are
        // handled in the next pass, not after the next read: a delivery's publish leaves in the iteration
        // that ran its task. A few passes at most, so that tasks which keep making work cannot starve reads.
        for _ in 1...Self.passesPerIteration {
            let commands = takeCommands()
            if commands.isEmpty { break }
            for (index, command) in commands.enumerated() {
                do {
                    try handle(command)
                } catch {
                    // The rest are handled after the teardown, as commands that arrived while disconnected.
                    putBack(commands[(index + 1)...])
                    throw error
                }
                if stateMachine.isFinished {
                    // Refused, now that the connection is closed.
                    for command in commands[(index + 1)...] { try? handle(command) }
                    return
                }
            }
        }
        try writeGatheredPublishes()
        try flushAcks()
        try repairChannels()
        expireConfirms()
        var framesRead = 0
        if mustRead {
            framesRead = try readAvailableFrames(limit: 512)
            lastReadAt = Self.monotonicNanoseconds()
            socketMayBeReadable = framesRead == 512
        }
        guard framesRead == 0, fallAsleepIfIdle() else { return }
        socketMayBeReadable = waitForEvents(timeout: pollInterval)
        wakeUp()
    }

    /// Reads when the socket or librabbitmq's buffers may hold frames, and at least every poll interval,
    /// because librabbitmq sends heartbeats and notices missed ones only while it is asked for frames.
    private var mustRead: Bool {
        guard let connection else { return false }
        if socketMayBeReadable || connection.hasBufferedInput { return true }
        let interval = UInt64(pollInterval.seconds * 1e9)
        return Self.monotonicNanoseconds() - lastReadAt >= interval
    }

    private func fallAsleepIfIdle() -> Bool {
        inbox.withLock { inbox in
            guard inbox.commands.isEmpty else { return false }
            inbox.driverIsAsleep = true
            return true
        }
    }

    private func wakeUp() {
        inbox.withLock { $0.driverIsAsleep = false }
    }

    private func runDisconnected() {
        let commands = takeCommands()
        for command in commands {
            // Nothing is sent while disconnected, so nothing can fail.
            try? handle(command)
        }
        let now = ContinuousClock.now
        switch stateMachine.nextConnectAction(now: now) {
        case .connect(let endpointIndex):
            connectToNextEndpoints(startingAt: endpointIndex)
        case .wait(let until):
            if fallAsleepIfIdle() {
                _ = waitForEvents(timeout: min(until - now, .seconds(1)))
                wakeUp()
            }
        case .none:
            break
        }
    }

    var pollInterval: Duration {
        let heartbeat = configuration.heartbeatSeconds
        return heartbeat > 0 ? min(.milliseconds(heartbeat * 250), .seconds(1)) : .seconds(1)
    }

    private func takeCommands() -> [Command] {
        inbox.withLock { inbox in
            let commands = inbox.commands
            inbox.commands.removeAll(keepingCapacity: true)
            return commands
        }
    }

    /// Returns commands taken but not handled to the front of the inbox, in their order.
    private func putBack(_ commands: ArraySlice<Command>) {
        guard !commands.isEmpty else { return }
        inbox.withLock { $0.commands.insert(contentsOf: commands, at: 0) }
    }

    /// Sleeps until the socket is readable, a command arrives, or the timeout passes; returns whether
    /// the socket may have something to read.
    func waitForEvents(timeout: Duration) -> Bool {
        pollDescriptors.removeAll(keepingCapacity: true)
        pollDescriptors.append(pollfd(fd: wakeReader, events: Int16(POLLIN), revents: 0))
        if let connection {
            let socket = connection.socket
            if socket >= 0 { pollDescriptors.append(pollfd(fd: socket, events: Int16(POLLIN), revents: 0)) }
        }
        let milliseconds = Int32(
            clamping: max(0, timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000))
        let ready = poll(&pollDescriptors, nfds_t(pollDescriptors.count), milliseconds)
        if pollDescriptors[0].revents & Int16(POLLIN) != 0 {
            while read(wakeReader, &drainBuffer, drainBuffer.count) > 0 {}
        }
        // A timeout or an error also counts as readable, so that librabbitmq gets to service heartbeats
        // and to report what went wrong.
        return ready <= 0 || pollDescriptors.count < 2 || pollDescriptors[1].revents != 0
    }

    // MARK: - Commands

    private static let notConnected = AMQPError(code: .connectionLost, message: "not connected to the broker; recovery is in progress")

    /// Handles one command as the connection's state allows: runs it on the connection, answers it as
    /// well as it can be answered while disconnected (recovery is in progress), or refuses it once the
    /// connection is closed. Throws only errors that end the connection.
    func handle(_ command: Command) throws(AMQPError) {
        let admission = stateMachine.admission
        let refusal = admission == .finished ? AMQPError.closedByApplication : Self.notConnected
        switch command {
        case .publish, .settle, .run:
            break
        default:
            // Frames leave in the order their commands came.
            if admission == .run { try writeGatheredPublishes() }
        }
        switch command {
        case .declare(let declaration, let reply):
            guard admission == .run else { return reply.resume(throwing: refusal) }
            do {
                try declare(declaration)
                topology.merge(declaration)
                reply.resume()
            } catch {
                reply.resume(throwing: error)
                if error.endsTheConnection { throw error }
            }

        case .publish(let message, let reply, let deadline):
            guard admission == .run else { return reply.resume(throwing: refusal) }
            try publish(message, reply: reply, deadline: deadline)

        case .consume(let queue, let prefetch, let maximumBodyBytes, let deliveries, let reply):
            guard admission != .finished else {
                deliveries.finish()
                return reply.resume(throwing: refusal)
            }
            let id = nextConsumerID
            nextConsumerID += 1
            consumers[id] = Consumer(
                id: id, queue: queue, prefetch: prefetch, maximumBodyBytes: maximumBodyBytes,
                deliveries: deliveries, channel: Self.publishChannel + UInt16(id))
            // While disconnected, subscribed when the connection is back, like every other consumer.
            guard admission == .run else { return reply.resume(returning: id) }
            do {
                try subscribe(consumerID: id)
                reply.resume(returning: id)
            } catch {
                consumers[id] = nil
                deliveries.finish()
                reply.resume(throwing: error)
                if error.endsTheConnection { throw error }
            }

        case .cancelConsumer(let id):
            guard admission == .run else {
                consumers.removeValue(forKey: id)?.deliveries.finish()
                return
            }
            try cancel(consumerID: id)

        case .settle(let consumerID, let generation, let deliveryTag, let settlement):
            switch admission {
            case .run: try settle(consumerID: consumerID, generation: generation, deliveryTag: deliveryTag, settlement)
            case .disconnected: statistics.recordStaleSettlement()
            case .finished: break
            }

        case .queueOperation(let operation, let reply):
            guard admission == .run else { return reply.resume(throwing: refusal) }
            do {
                reply.resume(returning: try perform(operation))
            } catch {
                reply.resume(throwing: error)
                if error.endsTheConnection { throw error }
            }

        case .openReader(let queue, let reply):
            guard admission == .run else { return reply.resume(throwing: refusal) }
            try openReader(queue: queue, reply: reply)

        case .read(let id, let reply):
            switch admission {
            case .run: try requestNext(readerID: id, reply: reply)
            case .disconnected: reply.resume(throwing: readers[id]?.lost ?? refusal)
            case .finished: reply.resume(throwing: refusal)
            }

        case .closeReader(let id, let reply):
            guard admission == .run else {
                // Nothing to close: the broker took the reader's unsettled messages back with the connection.
                readers[id] = nil
                return reply.resume()
            }
            do {
                try closeReader(id)
                reply.resume()
            } catch {
                reply.resume(throwing: error)
                if error.endsTheConnection { throw error }
            }

        case .close(let done):
            if admission == .run {
                try? flushAcks()
                closeConnection(replyText: "connection closed by the application")
            }
            if admission != .finished { finish() }
            done.resume()

        case .run(let job, let executor):
            guard admission != .finished else { return globalConcurrentExecutor.enqueue(ExecutorJob(job)) }
            job.runSynchronously(on: executor)
        }
    }

    /// Closes for good: fails everything still waiting and refuses the commands still in the inbox.
    func finish() {
        let (wire, initialWaiter) = stateMachine.finish()
        discardConnection(wire)
        let remaining = inbox.withLock { inbox -> [Command] in
            inbox.isFinished = true
            let commands = inbox.commands
            inbox.commands.removeAll()
            return commands
        }
        for command in remaining { try? handle(command) }
        let closed = AMQPError.closedByApplication
        for waiter in confirms.removeAll() { waiter.resume(throwing: closed) }
        for (_, waiter, _) in publishesWhileBlocked { waiter.resume(throwing: closed) }
        publishesWhileBlocked.removeAll()
        for consumer in consumers.values { consumer.deliveries.finish() }
        consumers.removeAll()
        for reader in readers.values { reader.waiting?.resume(throwing: closed) }
        readers.removeAll()
        initialWaiter?.resume(throwing: closed)
    }

    // MARK: - Watchdog

    /// How long the loop has been in its current pass; zero when it is not running. A pass lasts at most
    /// the poll interval unless a C call, or a task run on the connection's executor, holds the thread.
    var stalledFor: Duration {
        let tick = loopTick.load(ordering: .relaxed)
        let now = Self.monotonicNanoseconds()
        guard tick != 0, now > tick else { return .zero }
        return .nanoseconds(Int64(now - tick))
    }

    /// How long a pass may last before the watchdog shuts the socket down: longer than a connect and
    /// its handshake, and than a missed heartbeat takes to notice.
    var stallLimit: Duration {
        .seconds(max(configuration.connectTimeout.seconds * 2, Double(configuration.heartbeatSeconds) * 2, 20))
    }

    /// Shuts the socket down when the loop has been stuck in one C call for too long, so that the call
    /// returns with an error and the connection is recovered instead of hanging forever.
    private func watch() {
        while inbox.withLock({ !$0.isFinished }) {
            Thread.sleep(forTimeInterval: 1)
            guard stalledFor > stallLimit else { continue }
            let socket = socketDescriptor.exchange(-1, ordering: .relaxed)
            guard socket >= 0 else { continue }
            logger.error("the broker connection stalled inside librabbitmq; shutting its socket down to recover")
            _ = shutdown(socket, Int32(SHUT_RDWR))
        }
    }

    static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}

extension AMQPConnectionDriver.RPCResult {
    var count: UInt32 {
        if case .messageCount(let count) = self { return count }
        return 0
    }
}
