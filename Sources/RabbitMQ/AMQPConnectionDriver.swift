internal import CRabbitMQ
internal import CRabbitMQShim
import Foundation
import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Owns one librabbitmq connection and is the only code that calls `amqp_*`.
///
/// librabbitmq is not thread-safe, so every call runs on this driver's own thread. That thread polls the
/// socket and a wake-up pipe itself and only ever asks librabbitmq for frames with a zero timeout, which
/// keeps it clear of the library's blocking waits (the infinite `amqp_try_recv` of #780/#788 and the
/// `amqp_abort` of #563). Synchronous methods (declare, qos, consume) are sent with `amqp_send_method` and
/// their replies matched here, so frames of other channels keep flowing meanwhile. A watchdog thread shuts
/// the socket down if a C call ever stalls the loop, so that a hang becomes a recoverable connection loss.
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

    private struct Consumer {
        let id: Int
        let queue: String
        let prefetch: UInt16
        /// A delivery's body is kept up to this many bytes; the rest is read and dropped.
        let maximumBodyBytes: Int
        let deliveries: AMQPDeliveryBuffer
        let channel: UInt16
        var generation: UInt64 = 0
        var isCancelled = false
        /// The broker cancelled the subscription or refused it for a missing queue: declare before subscribing.
        var mustRedeclare = false
        var acks = AckCoalescer()
        var failedSubscriptions = 0
        var resubscribeAt: ContinuousClock.Instant?

        /// Kept in the delivery buffer, where ``AMQPConsumer/isSubscribed`` reads it from other threads.
        var isSubscribed: Bool {
            get { deliveries.isSubscribed.load(ordering: .relaxed) }
            nonmutating set { deliveries.isSubscribed.store(newValue, ordering: .relaxed) }
        }
    }

    /// A queue read with basic.get on a channel of its own; never recovered, see ``AMQPQueueReader``.
    private struct Reader {
        let queue: String
        let channel: UInt16
        let generation: UInt64
        var acks = AckCoalescer()
        /// The caller of the basic.get in flight: one at a time, as the protocol wants.
        var waiting: Reply<AMQPQueueReader.Message?>?
        /// Why the reader's channel is gone; the broker has taken its unsettled messages back.
        var lost: AMQPError?
    }

    private enum PendingContent {
        case delivery(deliveryTag: UInt64, redelivered: Bool, exchange: String, routingKey: String)
        case fetched(readerID: Int, deliveryTag: UInt64, redelivered: Bool, exchange: String, routingKey: String, remaining: UInt32)
        case returned(replyCode: Int, replyText: String, exchange: String, routingKey: String)
    }

    private struct ContentInProgress {
        var kind: PendingContent
        /// How much of the body is kept; what arrives beyond it is counted, not stored.
        var bodyLimit = Int.max
        var properties = AMQPProperties()
        var headersTruncated = false
        /// The size the content header announced, once it arrived.
        var bodySize: Int?
        var bodyReceived = 0
        var body: [UInt8] = []
    }

    enum RPCResult {
        case ok
        case messageCount(UInt32)
    }

    private struct RPCWait {
        let channel: UInt16
        let expected: UInt32
        var result: RPCResult?
        var error: AMQPError?
    }

    private static let controlChannel: UInt16 = 1
    private static let publishChannel: UInt16 = 2
    private static let frameMax: Int32 = 131_072
    /// The reply code of a channel closed for a queue or exchange that does not exist.
    private static let notFound = 404
    private static let rpcTimeout: Duration = .seconds(30)
    /// How many times an iteration takes the inbox again before it reads the socket.
    private static let passesPerIteration = 4
    /// librabbitmq decodes nested header tables recursively, with no depth limit in 0.11: a content header
    /// of one frame can nest about 18,000 levels, a few MiB of C stack. Reserved, not committed, memory.
    private static let threadStackBytes = 64 << 20
    /// The OS name of every driver thread (at most 15 characters on Linux).
    static let threadName = "amqp-driver"

    let configuration: AMQPConfiguration
    let statistics = AMQPConnectionStatistics()
    private let logger: Logger
    private let onReconnect: @Sendable () -> Void
    private let inbox = Mutex(Inbox())
    private let wakeReader: Int32
    private let wakeWriter: Int32
    private let loopTick = Atomic<UInt64>(0)
    private let socketDescriptor = Atomic<Int32>(-1)
    private let connected = Atomic<Bool>(false)
    private let negotiatedFrameMax = Atomic<Int>(Int(AMQPConnectionDriver.frameMax))

    // Driver-thread state.
    private var connection: amqp_connection_state_t?
    private var endpointIndex = 0
    private var reconnectAttempt = 0
    private var nextConnectAt = ContinuousClock.now
    private var initialConnect: Reply<Void>?
    private var topology = AMQPTopology()
    private var consumers: [Int: Consumer] = [:]
    private var readers: [Int: Reader] = [:]
    /// Numbers consumers and readers alike; each gets channel `publishChannel + id`.
    private var nextConsumerID = 1
    private var nextChannelGeneration: UInt64 = 1
    private var openChannels: Set<UInt16> = []
    private var channelsToRepair: Set<UInt16> = []
    private var confirms = PublisherConfirmTracker<Reply<Void>>()
    private var isBlocked = false
    /// Publishes held while the broker blocks publishing, with the deadlines of their confirms.
    private var publishesWhileBlocked: [(AMQPMessage, Reply<Void>, deadline: UInt64)] = []
    private var contents: [UInt16: ContentInProgress] = [:]
    /// Publishes gathered during a pass over the commands, written at its end; see ``AMQPWriteBuffer``.
    private var writeBuffer = AMQPWriteBuffer()
    /// Whether publishes go through `writeBuffer` (plain TCP) or through `amqp_basic_publish` (TLS).
    private var gathersPublishes = false
    private var rpcWait: RPCWait?
    private var isFinished = false
    private let arena = AMQPCArena()
    /// Whether the socket may hold unread frames; reading an empty socket costs librabbitmq two syscalls.
    private var socketMayBeReadable = true
    private var lastReadAt: UInt64 = 0
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

    /// The largest properties a publish can carry: a content header is one frame (8 bytes of framing,
    /// 14 of class, weight, body size and flags).
    var maximumPropertiesByteCount: Int { negotiatedFrameMax.load(ordering: .relaxed) - 8 - 14 }

    /// Starts the driver's thread and returns once the first round of connection attempts succeeded.
    func start() async throws {
        try await withCheckedThrowingContinuation { (continuation: Reply<Void>) in
            initialConnect = continuation
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
        submit(.settle(consumerID: delivery.consumerID, generation: delivery.channelGeneration,
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
        while !isFinished {
            loopTick.store(Self.monotonicNanoseconds(), ordering: .relaxed)
            if connection == nil {
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
                if isFinished {
                    refuse(commands[(index + 1)...])
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
        if socketMayBeReadable || amqp_frames_enqueued(connection) != 0 || amqp_data_in_buffer(connection) != 0 { return true }
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
        for (index, command) in commands.enumerated() {
            handleWhileDisconnected(command)
            if isFinished {
                refuse(commands[(index + 1)...])
                return
            }
        }
        let now = ContinuousClock.now
        guard now >= nextConnectAt else {
            if fallAsleepIfIdle() {
                _ = waitForEvents(timeout: min(nextConnectAt - now, .seconds(1)))
                wakeUp()
            }
            return
        }
        connectToNextEndpoints()
    }

    private var pollInterval: Duration {
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
    private func waitForEvents(timeout: Duration) -> Bool {
        pollDescriptors.removeAll(keepingCapacity: true)
        pollDescriptors.append(pollfd(fd: wakeReader, events: Int16(POLLIN), revents: 0))
        if let connection {
            let socket = amqp_get_sockfd(connection)
            if socket >= 0 { pollDescriptors.append(pollfd(fd: socket, events: Int16(POLLIN), revents: 0)) }
        }
        let milliseconds = Int32(clamping: max(0, timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000))
        let ready = poll(&pollDescriptors, nfds_t(pollDescriptors.count), milliseconds)
        if pollDescriptors[0].revents & Int16(POLLIN) != 0 {
            while read(wakeReader, &drainBuffer, drainBuffer.count) > 0 {}
        }
        // A timeout or an error also counts as readable, so that librabbitmq gets to service heartbeats
        // and to report what went wrong.
        return ready <= 0 || pollDescriptors.count < 2 || pollDescriptors[1].revents != 0
    }

    // MARK: - Commands

    private func handle(_ command: Command) throws(AMQPError) {
        switch command {
        case .publish, .settle, .run:
            break
        default:
            // Frames leave in the order their commands came.
            try writeGatheredPublishes()
        }
        switch command {
        case .declare(let declaration, let reply):
            do {
                try declare(declaration)
                topology.merge(declaration)
                reply.resume()
            } catch {
                reply.resume(throwing: error)
                if error.endsTheConnection { throw error }
            }

        case .publish(let message, let reply, let deadline):
            try publish(message, reply: reply, deadline: deadline)

        case .consume(let queue, let prefetch, let maximumBodyBytes, let deliveries, let reply):
            let id = nextConsumerID
            nextConsumerID += 1
            consumers[id] = Consumer(id: id, queue: queue, prefetch: prefetch, maximumBodyBytes: maximumBodyBytes,
                                     deliveries: deliveries, channel: Self.publishChannel + UInt16(id))
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
            try cancel(consumerID: id)

        case .settle(let consumerID, let generation, let deliveryTag, let settlement):
            try settle(consumerID: consumerID, generation: generation, deliveryTag: deliveryTag, settlement)

        case .queueOperation(let operation, let reply):
            do {
                reply.resume(returning: try perform(operation))
            } catch {
                reply.resume(throwing: error)
                if error.endsTheConnection { throw error }
            }

        case .openReader(let queue, let reply):
            let id = nextConsumerID
            nextConsumerID += 1
            let channel = Self.publishChannel + UInt16(id)
            do {
                try openChannel(channel)
            } catch {
                reply.resume(throwing: error)
                if error.endsTheConnection { throw error }
                return
            }
            readers[id] = Reader(queue: queue, channel: channel, generation: nextChannelGeneration)
            nextChannelGeneration += 1
            reply.resume(returning: id)

        case .read(let id, let reply):
            try requestNext(readerID: id, reply: reply)

        case .closeReader(let id, let reply):
            do {
                try closeReader(id)
                reply.resume()
            } catch {
                reply.resume(throwing: error)
                if error.endsTheConnection { throw error }
            }

        case .close(let done):
            try? flushAcks()
            closeConnection(replyText: "connection closed by the application")
            finish()
            done.resume()

        case .run(let job, let executor):
            job.runSynchronously(on: executor)
        }
    }

    private func handleWhileDisconnected(_ command: Command) {
        let lost = AMQPError(code: .connectionLost, message: "not connected to the broker; recovery is in progress")
        switch command {
        case .declare(_, let reply): reply.resume(throwing: lost)
        case .publish(_, let reply, _): reply.resume(throwing: lost)
        case .queueOperation(_, let reply): reply.resume(throwing: lost)
        case .openReader(_, let reply): reply.resume(throwing: lost)
        case .read(let id, let reply): reply.resume(throwing: readers[id]?.lost ?? lost)
        case .closeReader(let id, let reply):
            // Nothing to close: the broker took the reader's unsettled messages back with the connection.
            readers[id] = nil
            reply.resume()
        case .consume(let queue, let prefetch, let maximumBodyBytes, let deliveries, let reply):
            // Subscribed when the connection is back, like every other consumer.
            let id = nextConsumerID
            nextConsumerID += 1
            consumers[id] = Consumer(id: id, queue: queue, prefetch: prefetch, maximumBodyBytes: maximumBodyBytes,
                                     deliveries: deliveries, channel: Self.publishChannel + UInt16(id))
            reply.resume(returning: id)
        case .cancelConsumer(let id):
            consumers.removeValue(forKey: id)?.deliveries.finish()
        case .settle:
            statistics.recordStaleSettlement()
        case .close(let done):
            finish()
            done.resume()
        case .run(let job, let executor):
            job.runSynchronously(on: executor)
        }
    }

    private func finish() {
        isFinished = true
        let remaining = inbox.withLock { inbox -> [Command] in
            inbox.isFinished = true
            let commands = inbox.commands
            inbox.commands.removeAll()
            return commands
        }
        refuse(remaining[...])
        let closed = AMQPError.closedByApplication
        for waiter in confirms.removeAll() { waiter.resume(throwing: closed) }
        for (_, waiter, _) in publishesWhileBlocked { waiter.resume(throwing: closed) }
        publishesWhileBlocked.removeAll()
        for consumer in consumers.values { consumer.deliveries.finish() }
        consumers.removeAll()
        for reader in readers.values { reader.waiting?.resume(throwing: closed) }
        readers.removeAll()
        if let initialConnect {
            self.initialConnect = nil
            initialConnect.resume(throwing: closed)
        }
    }

    /// Answers commands that came too late, after ``finish()``: the connection is closed.
    private func refuse(_ commands: ArraySlice<Command>) {
        let closed = AMQPError.closedByApplication
        for command in commands {
            switch command {
            case .declare(_, let reply), .publish(_, let reply, _): reply.resume(throwing: closed)
            case .consume(_, _, _, let deliveries, let reply):
                deliveries.finish()
                reply.resume(throwing: closed)
            case .queueOperation(_, let reply): reply.resume(throwing: closed)
            case .openReader(_, let reply): reply.resume(throwing: closed)
            case .read(_, let reply): reply.resume(throwing: closed)
            case .closeReader(_, let reply): reply.resume()
            case .close(let done): done.resume()
            case .cancelConsumer, .settle: break
            case .run(let job, _): globalConcurrentExecutor.enqueue(ExecutorJob(job))
            }
        }
    }

    // MARK: - Connecting and recovery

    private func connectToNextEndpoints() {
        var lastError: AMQPError?
        for _ in configuration.endpoints.indices {
            let endpoint = configuration.endpoints[endpointIndex % configuration.endpoints.count]
            do {
                try connect(to: endpoint)
                try setUpChannelsAndTopology()
                onConnected(to: endpoint)
                return
            } catch {
                lastError = error
                logger.warning("could not connect to the broker", metadata: [
                    "endpoint": "\(endpoint)", "error": "\(error)",
                ])
                if connection != nil { discardConnection() }
                endpointIndex += 1
            }
        }
        let error = lastError ?? AMQPError(code: .connectionFailed, message: "no broker endpoint configured")
        if let initialConnect {
            self.initialConnect = nil
            initialConnect.resume(throwing: error)
            finish()
            return
        }
        let delay = configuration.reconnectBackoff.delay(forAttempt: reconnectAttempt)
        reconnectAttempt += 1
        nextConnectAt = .now + delay
        logger.info("retrying the broker connection", metadata: [
            "attempt": "\(reconnectAttempt)", "delay_ms": "\(Int(delay.seconds * 1000))",
        ])
    }

    private func onConnected(to endpoint: AMQPEndpoint) {
        if let connection { negotiatedFrameMax.store(Int(amqp_get_frame_max(connection)), ordering: .relaxed) }
        connected.store(true, ordering: .relaxed)
        if let initialConnect {
            self.initialConnect = nil
            logger.info("connected to the broker", metadata: ["endpoint": "\(endpoint)"])
            initialConnect.resume()
        } else {
            statistics.recordReconnect()
            onReconnect()
            logger.notice("reconnected to the broker; topology re-declared and consumers resumed", metadata: [
                "endpoint": "\(endpoint)", "attempts": "\(reconnectAttempt + 1)",
            ])
        }
        reconnectAttempt = 0
    }

    private func connect(to endpoint: AMQPEndpoint) throws(AMQPError) {
        guard let state = amqp_new_connection() else {
            throw AMQPError(code: .protocolError, message: "librabbitmq could not allocate a connection")
        }
        connection = state
        let socket = try makeSocket(for: endpoint, on: state)
        gathersPublishes = !endpoint.usesTLS
        var timeout = Self.makeTimeval(configuration.connectTimeout)
        let opened = amqp_socket_open_noblock(socket, endpoint.host, Int32(endpoint.port), &timeout)
        guard opened == AMQP_STATUS_OK.rawValue else { throw Self.openError(opened, endpoint: endpoint) }
        socketDescriptor.store(amqp_get_sockfd(state), ordering: .relaxed)
        _ = amqp_set_handshake_timeout(state, &timeout)
        _ = amqp_set_rpc_timeout(state, &timeout)

        defer { arena.reset() }
        var clientProperties = arena.table(clientPropertiesTable(for: endpoint))
        let heartbeat = Int32(endpoint.heartbeatSeconds ?? configuration.heartbeatSeconds)
        let reply = crabbitmq_login_plain(state, endpoint.virtualHost, 0, Self.frameMax, heartbeat,
                                          &clientProperties, endpoint.user, endpoint.password)
        try Self.check(reply, doing: "log in to \(endpoint) as '\(endpoint.user)' on virtual host '\(endpoint.virtualHost)'",
                       failureCode: .authenticationFailed)
    }

    private func makeSocket(for endpoint: AMQPEndpoint, on state: amqp_connection_state_t) throws(AMQPError) -> OpaquePointer {
        guard endpoint.usesTLS else {
            guard let socket = amqp_tcp_socket_new(state) else {
                throw AMQPError(code: .protocolError, message: "librabbitmq could not create a TCP socket")
            }
            return socket
        }
        let tls = configuration.tls
        guard let socket = amqp_ssl_socket_new(state) else {
            throw AMQPError(code: .tls, message: "could not create a TLS socket (OpenSSL initialisation failed)")
        }
        guard amqp_ssl_socket_set_ssl_versions(socket, AMQP_TLSv1_2, AMQP_TLSvLATEST) == AMQP_STATUS_OK.rawValue else {
            throw AMQPError(code: .tls, message: "this OpenSSL cannot do TLS 1.2 or later")
        }
        if let caFile = tls.caFile {
            let status = amqp_ssl_socket_set_cacert(socket, caFile)
            guard status == AMQP_STATUS_OK.rawValue else {
                throw AMQPError(code: .tls, message: "cannot load the CA file '\(caFile)': \(Self.statusText(status))")
            }
        } else if let context = amqp_ssl_socket_get_context(socket) {
            SSL_CTX_set_default_verify_paths(OpaquePointer(context))
        }
        if let certificateFile = tls.certificateFile {
            guard let keyFile = tls.keyFile else {
                throw AMQPError(code: .tls, message: "a client certificate needs its key file too")
            }
            let status = amqp_ssl_socket_set_key(socket, certificateFile, keyFile)
            guard status == AMQP_STATUS_OK.rawValue else {
                throw AMQPError(code: .tls, message: "cannot load the client certificate '\(certificateFile)' with key '\(keyFile)': \(Self.statusText(status))")
            }
        }
        amqp_ssl_socket_set_verify_peer(socket, tls.verifyPeer ? 1 : 0)
        amqp_ssl_socket_set_verify_hostname(socket, tls.verifyHostname ? 1 : 0)
        return socket
    }

    /// Client properties; the capabilities make the broker send basic.cancel (rabbitmq-c #870),
    /// connection.blocked, and a connection.close with a reason on authentication failure.
    private func clientPropertiesTable(for endpoint: AMQPEndpoint) -> AMQPFieldTable {
        [
            "product": "checkout-worker",
            "platform": "Swift on librabbitmq",
            "connection_name": .string(endpoint.connectionName ?? configuration.connectionName),
            "capabilities": .table([
                "publisher_confirms": true,
                "consumer_cancel_notify": true,
                "basic.nack": true,
                "connection.blocked": true,
                "authentication_failure_close": true,
                "exchange_exchange_bindings": true,
            ]),
        ]
    }

    private func setUpChannelsAndTopology() throws(AMQPError) {
        openChannels.removeAll()
        channelsToRepair.removeAll()
        contents.removeAll()
        isBlocked = false
        try openChannel(Self.controlChannel)
        try openPublishChannel()
        try declare(topology)
        for id in consumers.keys.sorted() {
            consumers[id]?.isSubscribed = false
            consumers[id]?.failedSubscriptions = 0
            do {
                try subscribe(consumerID: id)
            } catch where error.code == .channelClosed {
                logger.error("could not resume a consumer", metadata: ["queue": "\(consumers[id]?.queue ?? "")", "error": "\(error)"])
            }
        }
    }

    /// Drops the connection after a failure: fails what was in flight, keeps consumers for recovery.
    private func tearDown(because error: AMQPError) {
        logger.warning("lost the broker connection; will recover", metadata: ["error": "\(error)"])
        discardConnection()
        let lost = AMQPError(code: .connectionLost, message: "the broker connection was lost before the broker confirmed: \(error.message)")
        for waiter in confirms.removeAll() { waiter.resume(throwing: lost) }
        for (_, waiter, _) in publishesWhileBlocked { waiter.resume(throwing: lost) }
        publishesWhileBlocked.removeAll()
        for id in consumers.keys {
            consumers[id]?.isSubscribed = false
            consumers[id]?.acks = AckCoalescer()
            if consumers[id]?.isCancelled == true { consumers.removeValue(forKey: id)?.deliveries.finish() }
        }
        for id in readers.keys {
            readerLost(id, AMQPError(code: .connectionLost, message: "the broker connection was lost while reading queue '\(readers[id]!.queue)'; the messages it had not settled went back to the queue: \(error.message)"))
        }
        nextConnectAt = .now + configuration.reconnectBackoff.delay(forAttempt: 0)
        reconnectAttempt = 1
    }

    private func discardConnection() {
        connected.store(false, ordering: .relaxed)
        socketDescriptor.store(-1, ordering: .relaxed)
        if let connection { amqp_destroy_connection(connection) }
        connection = nil
        openChannels.removeAll()
        contents.removeAll()
        writeBuffer.discard()
        rpcWait = nil
    }

    private func closeConnection(replyText: String) {
        guard let connection else { return }
        defer { discardConnection() }
        var close = amqp_connection_close_t()
        close.reply_code = 200
        close.reply_text = arena.bytes(replyText)
        defer { arena.reset() }
        guard amqp_send_method(connection, 0, Method.connectionClose, &close) == AMQP_STATUS_OK.rawValue else { return }
        _ = try? awaitReply(on: 0, expecting: Method.connectionCloseOK, timeout: .seconds(2))
        logger.info("closed the broker connection")
    }

    // MARK: - Channels

    private func openChannel(_ channel: UInt16) throws(AMQPError) {
        var open = amqp_channel_open_t()
        _ = try rpc(channel, Method.channelOpen, &open, expecting: Method.channelOpenOK)
        openChannels.insert(channel)
        channelsToRepair.remove(channel)
    }

    private func openPublishChannel() throws(AMQPError) {
        try openChannel(Self.publishChannel)
        var select = amqp_confirm_select_t()
        _ = try rpc(Self.publishChannel, Method.confirmSelect, &select, expecting: Method.confirmSelectOK)
    }

    private func ensureControlChannel() throws(AMQPError) {
        if !openChannels.contains(Self.controlChannel) { try openChannel(Self.controlChannel) }
    }

    /// Reopens channels the broker closed, and resubscribes consumers whose backoff has passed.
    private func repairChannels() throws(AMQPError) {
        if channelsToRepair.contains(Self.publishChannel) {
            do {
                try openPublishChannel()
                flushPublishesWhileBlocked()
            } catch where error.code == .channelClosed {
                logger.error("could not reopen the publishing channel", metadata: ["error": "\(error)"])
            }
        }
        let now = ContinuousClock.now
        for consumer in consumers.values where !consumer.isSubscribed && !consumer.isCancelled {
            guard consumer.resubscribeAt.map({ $0 <= now }) ?? true else { continue }
            do {
                try subscribe(consumerID: consumer.id)
            } catch where error.code == .channelClosed {
                logger.error("could not resume a consumer", metadata: ["queue": "\(consumer.queue)", "error": "\(error)"])
            }
        }
    }

    private func handleChannelClose(_ channel: UInt16, code: Int, text: String) {
        if let connection {
            var closeOK = amqp_channel_close_ok_t()
            _ = amqp_send_method(connection, channel, Method.channelCloseOK, &closeOK)
        }
        openChannels.remove(channel)
        contents[channel] = nil
        let error = AMQPError(code: .channelClosed, message: "the broker closed channel \(channel): \(text)", replyCode: code)
        if rpcWait?.channel == channel { rpcWait?.error = error }
        statistics.recordChannelClosedByBroker()
        logger.warning("the broker closed a channel", metadata: ["channel": "\(channel)", "reply_code": "\(code)", "reply_text": "\(text)"])
        if channel == Self.publishChannel {
            channelsToRepair.insert(channel)
            for waiter in confirms.removeAll() { waiter.resume(throwing: error) }
        } else if let id = consumers.values.first(where: { $0.channel == channel })?.id {
            if code == Self.notFound { consumers[id]?.mustRedeclare = true }
            unsubscribed(consumerID: id)
        } else if let id = readerID(on: channel) {
            readerLost(id, error)
        }
    }

    // MARK: - Declarations

    private func declare(_ declaration: AMQPTopology) throws(AMQPError) {
        try ensureControlChannel()
        defer { arena.reset() }
        for exchange in declaration.exchanges {
            var method = amqp_exchange_declare_t()
            method.exchange = arena.bytes(exchange.name)
            method.type = arena.bytes(exchange.type)
            method.durable = exchange.durable ? 1 : 0
            method.auto_delete = exchange.autoDelete ? 1 : 0
            method.arguments = arena.table(exchange.arguments)
            _ = try rpc(Self.controlChannel, Method.exchangeDeclare, &method, expecting: Method.exchangeDeclareOK)
        }
        for queue in declaration.queues {
            var method = amqp_queue_declare_t()
            method.queue = arena.bytes(queue.name)
            method.durable = queue.durable ? 1 : 0
            method.exclusive = queue.exclusive ? 1 : 0
            method.auto_delete = queue.autoDelete ? 1 : 0
            method.arguments = arena.table(queue.arguments)
            _ = try rpc(Self.controlChannel, Method.queueDeclare, &method, expecting: Method.queueDeclareOK)
        }
        for binding in declaration.bindings {
            var method = amqp_queue_bind_t()
            method.queue = arena.bytes(binding.queue)
            method.exchange = arena.bytes(binding.exchange)
            method.routing_key = arena.bytes(binding.routingKey)
            method.arguments = arena.table(binding.arguments)
            _ = try rpc(Self.controlChannel, Method.queueBind, &method, expecting: Method.queueBindOK)
        }
    }

    private func perform(_ operation: QueueOperation) throws(AMQPError) -> UInt32 {
        try ensureControlChannel()
        defer { arena.reset() }
        switch operation {
        case .purge(let queue):
            var method = amqp_queue_purge_t()
            method.queue = arena.bytes(queue)
            return try rpc(Self.controlChannel, Method.queuePurge, &method, expecting: Method.queuePurgeOK).count
        case .deleteQueue(let queue):
            var method = amqp_queue_delete_t()
            method.queue = arena.bytes(queue)
            return try rpc(Self.controlChannel, Method.queueDelete, &method, expecting: Method.queueDeleteOK).count
        case .deleteExchange(let exchange):
            var method = amqp_exchange_delete_t()
            method.exchange = arena.bytes(exchange)
            _ = try rpc(Self.controlChannel, Method.exchangeDelete, &method, expecting: Method.exchangeDeleteOK)
            return 0
        }
    }

    // MARK: - Consuming

    private func subscribe(consumerID id: Int) throws(AMQPError) {
        guard var consumer = consumers[id] else { return }
        do {
            if consumer.mustRedeclare { try declare(topology) }
            if !openChannels.contains(consumer.channel) { try openChannel(consumer.channel) }
            var qos = amqp_basic_qos_t()
            qos.prefetch_count = consumer.prefetch
            _ = try rpc(consumer.channel, Method.basicQos, &qos, expecting: Method.basicQosOK)
            defer { arena.reset() }
            var consume = amqp_basic_consume_t()
            consume.queue = arena.bytes(consumer.queue)
            consume.consumer_tag = arena.bytes("\(configuration.connectionName).\(id)")
            _ = try rpc(consumer.channel, Method.basicConsume, &consume, expecting: Method.basicConsumeOK)
        } catch {
            if error.code == .channelClosed { scheduleResubscribe(consumerID: id) }
            throw error
        }
        consumer.generation = nextChannelGeneration
        nextChannelGeneration += 1
        consumer.isSubscribed = true
        consumer.mustRedeclare = false
        consumer.failedSubscriptions = 0
        consumer.resubscribeAt = nil
        consumer.acks = AckCoalescer()
        consumers[id] = consumer
    }

    private func unsubscribed(consumerID id: Int) {
        guard consumers[id] != nil else { return }
        consumers[id]?.isSubscribed = false
        consumers[id]?.acks = AckCoalescer()
        if consumers[id]?.isCancelled == true {
            consumers.removeValue(forKey: id)?.deliveries.finish()
        } else {
            scheduleResubscribe(consumerID: id)
        }
    }

    private func scheduleResubscribe(consumerID id: Int) {
        guard let consumer = consumers[id] else { return }
        let delay = configuration.reconnectBackoff.delay(forAttempt: consumer.failedSubscriptions)
        consumers[id]?.failedSubscriptions += 1
        consumers[id]?.resubscribeAt = .now + delay
    }

    /// Stops deliveries; the channel closes (returning what is unacked) once the in-flight ones are settled.
    private func cancel(consumerID id: Int) throws(AMQPError) {
        guard let consumer = consumers[id], !consumer.isCancelled else { return }
        consumers[id]?.isCancelled = true
        guard consumer.isSubscribed, let connection else {
            consumers.removeValue(forKey: id)?.deliveries.finish()
            return
        }
        defer { arena.reset() }
        var method = amqp_basic_cancel_t()
        method.consumer_tag = arena.bytes("\(configuration.connectionName).\(id)")
        method.nowait = 1
        try Self.check(amqp_send_method(connection, consumer.channel, Method.basicCancel, &method), doing: "cancel a consumer")
        consumer.deliveries.finish()
        try closeChannelIfDrained(consumerID: id)
    }

    private func closeChannelIfDrained(consumerID id: Int) throws(AMQPError) {
        guard let consumer = consumers[id], consumer.isCancelled, consumer.acks.unsettledCount == 0, let connection else { return }
        consumers[id] = nil
        var close = amqp_channel_close_t()
        close.reply_code = 200
        try Self.check(amqp_send_method(connection, consumer.channel, Method.channelClose, &close), doing: "close a consumer's channel")
        openChannels.remove(consumer.channel)
    }

    private func settle(consumerID: Int, generation: UInt64, deliveryTag: UInt64, _ settlement: AMQPSettlement) throws(AMQPError) {
        if var reader = readers[consumerID], reader.generation == generation, reader.lost == nil {
            try settle(deliveryTag, settlement, in: &reader.acks, on: reader.channel)
            readers[consumerID] = reader
            return
        }
        guard var consumer = consumers[consumerID], consumer.generation == generation, consumer.isSubscribed else {
            statistics.recordStaleSettlement()
            logger.debug("ignored the settlement of a delivery from a closed channel", metadata: ["delivery_tag": "\(deliveryTag)"])
            return
        }
        try settle(deliveryTag, settlement, in: &consumer.acks, on: consumer.channel)
        consumers[consumerID] = consumer
        try closeChannelIfDrained(consumerID: consumerID)
    }

    /// Acks wait in `acks` to be coalesced; nacks and rejects are sent at once.
    private func settle(_ deliveryTag: UInt64, _ settlement: AMQPSettlement, in acks: inout AckCoalescer, on channel: UInt16) throws(AMQPError) {
        guard let connection else { return }
        switch settlement {
        case .ack:
            if !acks.ack(deliveryTag) {
                logger.warning("ignored a second settlement of a delivery", metadata: ["delivery_tag": "\(deliveryTag)"])
            }
        case .nack(let requeue):
            guard acks.remove(deliveryTag) else { return }
            try Self.check(amqp_basic_nack(connection, channel, deliveryTag, 0, requeue ? 1 : 0), doing: "nack a delivery")
        case .reject(let requeue):
            guard acks.remove(deliveryTag) else { return }
            try Self.check(amqp_basic_reject(connection, channel, deliveryTag, requeue ? 1 : 0), doing: "reject a delivery")
        }
    }

    private func flushAcks() throws(AMQPError) {
        for (id, consumer) in consumers where consumer.isSubscribed {
            guard try sendAcks(&consumers[id]!.acks, on: consumer.channel) else { continue }
            try closeChannelIfDrained(consumerID: id)
        }
        for (id, reader) in readers where reader.lost == nil {
            try sendAcks(&readers[id]!.acks, on: reader.channel)
        }
    }

    /// Sends the acks waiting in `acks`; false when there were none.
    @discardableResult
    private func sendAcks(_ acks: inout AckCoalescer, on channel: UInt16) throws(AMQPError) -> Bool {
        guard let connection else { return false }
        let frames = acks.drain()
        guard !frames.isEmpty else { return false }
        for ack in frames {
            try Self.check(amqp_basic_ack(connection, channel, ack.deliveryTag, ack.multiple ? 1 : 0), doing: "ack deliveries")
        }
        statistics.recordAckFrames(frames.count)
        return true
    }

    // MARK: - Reading with basic.get

    /// Asks for the next message; the reply comes with basic.get-ok and its content, or basic.get-empty.
    private func requestNext(readerID id: Int, reply: Reply<AMQPQueueReader.Message?>) throws(AMQPError) {
        guard let reader = readers[id] else {
            reply.resume(throwing: AMQPError(code: .closed, message: "the queue reader was closed"))
            return
        }
        if let lost = reader.lost {
            reply.resume(throwing: lost)
            return
        }
        guard reader.waiting == nil else {
            reply.resume(throwing: AMQPError(code: .protocolError, message: "a queue reader reads one message at a time"))
            return
        }
        guard let connection else { throw AMQPError(code: .connectionLost, message: "not connected") }
        defer { arena.reset() }
        var get = amqp_basic_get_t()
        get.queue = arena.bytes(reader.queue)
        readers[id]?.waiting = reply
        try Self.check(amqp_send_method(connection, reader.channel, Method.basicGet, &get), doing: "read from queue '\(reader.queue)'")
    }

    private func fetched(_ message: AMQPMessage, headersTruncated: Bool, readerID id: Int, deliveryTag: UInt64, redelivered: Bool,
                         remaining: UInt32) {
        guard let reader = readers[id], reader.lost == nil else { return }
        let delivery = AMQPDelivery(exchange: message.exchange, routingKey: message.routingKey, properties: message.properties,
                                    body: message.body, bodySize: message.body.count, headersTruncated: headersTruncated,
                                    redelivered: redelivered, deliveryTag: deliveryTag,
                                    consumerID: id, channelGeneration: reader.generation, settler: self)
        readers[id]?.acks.received(deliveryTag)
        readers[id]?.waiting = nil
        statistics.recordDelivery()
        reader.waiting?.resume(returning: AMQPQueueReader.Message(delivery: delivery, remaining: Int(remaining)))
    }

    private func queueWasEmpty(readerID id: Int) {
        let waiting = readers[id]?.waiting
        readers[id]?.waiting = nil
        waiting?.resume(returning: nil)
    }

    /// Sends the acks so far, hands back what is still unsettled and closes the channel.
    ///
    /// The rest goes back with one `multiple` basic.nack rather than with the channel's close: RabbitMQ 4.3
    /// and later count a message returned by a closing channel towards a quorum queue's delivery limit,
    /// and one returned by basic.nack not.
    private func closeReader(_ id: Int) throws(AMQPError) {
        guard let reader = readers.removeValue(forKey: id) else { return }
        reader.waiting?.resume(throwing: AMQPError(code: .closed, message: "the queue reader was closed"))
        guard reader.lost == nil, let connection else { return }
        var acks = reader.acks
        try sendAcks(&acks, on: reader.channel)
        if let last = acks.lastUnsettledTag {
            try Self.check(amqp_basic_nack(connection, reader.channel, last, 1, 1), doing: "hand back what a queue reader read")
        }
        var close = amqp_channel_close_t()
        close.reply_code = 200
        _ = try rpc(reader.channel, Method.channelClose, &close, expecting: Method.channelCloseOK)
        openChannels.remove(reader.channel)
    }

    private func readerLost(_ id: Int, _ error: AMQPError) {
        guard let reader = readers[id] else { return }
        readers[id]?.lost = error
        readers[id]?.waiting = nil
        readers[id]?.acks = AckCoalescer()
        reader.waiting?.resume(throwing: error)
    }

    private func readerID(on channel: UInt16) -> Int? {
        readers.first { $0.value.channel == channel }?.key
    }

    // MARK: - Publishing

    private func publish(_ message: AMQPMessage, reply: Reply<Void>, deadline: UInt64? = nil) throws(AMQPError) {
        let deadline = deadline ?? Self.monotonicNanoseconds() + UInt64(configuration.confirmTimeout.seconds * 1e9)
        guard !isBlocked else {
            publishesWhileBlocked.append((message, reply, deadline))
            return
        }
        guard let connection, openChannels.contains(Self.publishChannel) else {
            reply.resume(throwing: AMQPError(code: .channelClosed, message: "the publishing channel is being reopened"))
            return
        }
        // amqp_basic_publish fails such a message only after sending its method frame, which breaks the
        // connection; the gathering encoder below refuses it before writing anything.
        if !gathersPublishes, message.properties.encodedByteCount > maximumPropertiesByteCount {
            reply.resume(throwing: Self.propertiesTooLarge(message.properties))
            return
        }
        defer { arena.reset() }
        var properties = arena.properties(message.properties)
        let exchange = arena.bytes(message.exchange)
        let routingKey = arena.bytes(message.routingKey)
        let status = message.body.withUnsafeBytes { body -> Int in
            let bodyBytes = amqp_bytes_t(len: body.count, bytes: UnsafeMutableRawPointer(mutating: body.baseAddress))
            guard gathersPublishes else {
                return Int(amqp_basic_publish(connection, Self.publishChannel, exchange, routingKey, message.mandatory ? 1 : 0, 0,
                                              &properties, bodyBytes))
            }
            let frameMax = Int(amqp_get_frame_max(connection))
            let written = writeBuffer.append(atMost: crabbitmq_publish_size_limit(body.count, frameMax)) { frames in
                crabbitmq_encode_publish(frames, frameMax, Self.publishChannel, exchange.bytes, exchange.len, routingKey.bytes,
                                         routingKey.len, message.mandatory ? 1 : 0, &properties, body.baseAddress, body.count)
            }
            return written < 0 ? written : Int(AMQP_STATUS_OK.rawValue)
        }
        guard status == Int(AMQP_STATUS_OK.rawValue) else {
            let text = Self.statusText(Int32(status))
            guard gathersPublishes else {
                let error = AMQPError(code: .connectionLost, message: "publishing failed: \(text)")
                reply.resume(throwing: error)
                throw error
            }
            // Nothing was gathered: the connection and the other publishes are unaffected.
            reply.resume(throwing: AMQPError(code: .protocolError, message: "the message cannot be encoded (its properties do not fit in one frame): \(text)"))
            return
        }
        let returnKey = message.mandatory
            ? PublisherConfirmTracker<Reply<Void>>.ReturnKey(exchange: message.exchange, routingKey: message.routingKey,
                                                              messageID: message.properties.messageID, body: message.body)
            : nil
        confirms.published(reply, returnKey: returnKey, deadline: deadline)
        statistics.recordPublish()
    }

    private static func propertiesTooLarge(_ properties: AMQPProperties) -> AMQPError {
        AMQPError(code: .protocolError, message: "its properties (\(properties.encodedByteCount) bytes) do not fit in one frame")
    }

    private func writeGatheredPublishes() throws(AMQPError) {
        guard !writeBuffer.isEmpty, let connection else { return }
        try writeBuffer.write(to: amqp_get_sockfd(connection))
        statistics.recordPublishWrite()
    }

    private func flushPublishesWhileBlocked() {
        let waiting = publishesWhileBlocked
        publishesWhileBlocked.removeAll()
        for (message, reply, deadline) in waiting { submit(.publish(message, reply, deadline: deadline)) }
    }

    /// Fails the publishes whose confirm did not come in time: a broker that takes a message but never
    /// confirms it (a long resource alarm, a quorum queue without a majority) must not hold the
    /// publishers forever. Whether the broker has the message is unknown, as after a lost connection.
    private func expireConfirms() {
        let now = Self.monotonicNanoseconds()
        let expired = confirms.expire(at: now)
        let blocked = publishesWhileBlocked.filter { $0.deadline <= now }
        guard !expired.isEmpty || !blocked.isEmpty else { return }
        publishesWhileBlocked.removeAll { $0.deadline <= now }
        let timeout = configuration.confirmTimeout
        logger.warning("publishes went unconfirmed past the confirm timeout; failing them", metadata: [
            "publishes.unconfirmed": "\(expired.count)", "publishes.blocked": "\(blocked.count)", "timeout": "\(timeout)",
        ])
        statistics.recordConfirmTimeouts(expired.count + blocked.count)
        let error = AMQPError(code: .timeout, message: "the broker did not confirm the publish within \(timeout); it may or may not have the message")
        for waiter in expired { waiter.resume(throwing: error) }
        for (_, waiter, _) in blocked { waiter.resume(throwing: error) }
    }

    // MARK: - Reading frames

    /// Handles every frame that can be read without waiting; returns how many there were.
    private func readAvailableFrames(limit: Int) throws(AMQPError) -> Int {
        guard let connection else { return 0 }
        var frame = amqp_frame_t()
        var noWait = timeval(tv_sec: 0, tv_usec: 0)
        var count = 0
        while count < limit {
            let status = amqp_simple_wait_frame_noblock(connection, &frame, &noWait)
            if status == AMQP_STATUS_TIMEOUT.rawValue { break }
            guard status == AMQP_STATUS_OK.rawValue else {
                throw AMQPError(code: .connectionLost, message: Self.statusText(status))
            }
            count += 1
            try handle(frame)
            if self.connection != nil { amqp_maybe_release_buffers_on_channel(connection, frame.channel) }
            // Stop at a synchronous reply: what follows it (deliveries after consume-ok) needs the caller's state.
            if let wait = rpcWait, wait.result != nil || wait.error != nil { break }
        }
        return count
    }

    private func handle(_ frame: amqp_frame_t) throws(AMQPError) {
        let channel = frame.channel
        switch Int32(frame.frame_type) {
        case AMQP_FRAME_METHOD:
            try handleMethod(frame.payload.method, on: channel)
        case AMQP_FRAME_HEADER:
            // Taken out of the dictionary so that appending to its body does not copy it.
            guard var content = contents.removeValue(forKey: channel) else { return }
            if let decoded = frame.payload.properties.decoded {
                var decoding = AMQPCDecoding()
                content.properties = decoding.properties(decoded.assumingMemoryBound(to: amqp_basic_properties_t.self).pointee)
                content.headersTruncated = decoding.truncatedHeaders
            }
            let bodySize = Int(clamping: frame.payload.properties.body_size)
            content.bodySize = bodySize
            content.body.reserveCapacity(min(bodySize, content.bodyLimit))
            try store(content, on: channel)
        case AMQP_FRAME_BODY:
            guard var content = contents.removeValue(forKey: channel) else { return }
            let fragment = frame.payload.body_fragment
            let kept = min(fragment.len, max(content.bodyLimit - content.body.count, 0))
            if kept > 0, let bytes = fragment.bytes {
                content.body.append(contentsOf: UnsafeRawBufferPointer(start: bytes, count: kept))
            }
            content.bodyReceived += fragment.len
            try store(content, on: channel)
        default:
            break
        }
    }

    private func store(_ content: ContentInProgress, on channel: UInt16) throws(AMQPError) {
        guard let size = content.bodySize, content.bodyReceived >= size else {
            contents[channel] = content
            return
        }
        contents[channel] = nil
        switch content.kind {
        case .delivery(let deliveryTag, let redelivered, let exchange, let routingKey):
            try deliver(AMQPMessage(exchange: exchange, routingKey: routingKey, properties: content.properties, body: content.body),
                        bodySize: size, headersTruncated: content.headersTruncated,
                        deliveryTag: deliveryTag, redelivered: redelivered, on: channel)
        case .fetched(let readerID, let deliveryTag, let redelivered, let exchange, let routingKey, let remaining):
            fetched(AMQPMessage(exchange: exchange, routingKey: routingKey, properties: content.properties, body: content.body),
                    headersTruncated: content.headersTruncated, readerID: readerID, deliveryTag: deliveryTag, redelivered: redelivered, remaining: remaining)
        case .returned(let replyCode, let replyText, let exchange, let routingKey):
            confirms.returned(.init(exchange: exchange, routingKey: routingKey, messageID: content.properties.messageID, body: content.body),
                              replyCode: replyCode, replyText: replyText)
        }
    }

    private func deliver(_ message: AMQPMessage, bodySize: Int, headersTruncated: Bool, deliveryTag: UInt64, redelivered: Bool,
                         on channel: UInt16) throws(AMQPError) {
        guard let connection else { return }
        if let consumer = consumers.values.first(where: { $0.channel == channel && $0.isSubscribed && !$0.isCancelled }) {
            let delivery = AMQPDelivery(exchange: message.exchange, routingKey: message.routingKey, properties: message.properties,
                                        body: message.body, bodySize: bodySize, headersTruncated: headersTruncated,
                                        redelivered: redelivered, deliveryTag: deliveryTag,
                                        consumerID: consumer.id, channelGeneration: consumer.generation, settler: self)
            consumers[consumer.id]!.acks.received(deliveryTag)
            if consumer.deliveries.yield(delivery) {
                statistics.recordDelivery()
                return
            }
            _ = consumers[consumer.id]!.acks.remove(deliveryTag)
        }
        // Nobody will settle it: hand it back at once so it is not stuck until the connection closes. On a
        // channel this side is closing, the broker takes it back with the channel, and would refuse the reject.
        guard openChannels.contains(channel) else { return }
        try Self.check(amqp_basic_reject(connection, channel, deliveryTag, 1), doing: "return a delivery nobody consumes")
    }

    private func handleMethod(_ method: amqp_method_t, on channel: UInt16) throws(AMQPError) {
        if let wait = rpcWait, wait.channel == channel, wait.expected == method.id {
            rpcWait?.result = Self.rpcResult(method)
            return
        }
        switch method.id {
        case Method.basicDeliver:
            let deliver = method.decoded.assumingMemoryBound(to: amqp_basic_deliver_t.self).pointee
            contents[channel] = ContentInProgress(
                kind: .delivery(deliveryTag: deliver.delivery_tag, redelivered: deliver.redelivered != 0,
                                exchange: AMQPCDecoding.string(deliver.exchange), routingKey: AMQPCDecoding.string(deliver.routing_key)),
                bodyLimit: consumers.values.first { $0.channel == channel }?.maximumBodyBytes ?? Int.max)
        case Method.basicGetOK:
            guard let id = readerID(on: channel) else { break }
            let got = method.decoded.assumingMemoryBound(to: amqp_basic_get_ok_t.self).pointee
            contents[channel] = ContentInProgress(kind: .fetched(
                readerID: id, deliveryTag: got.delivery_tag, redelivered: got.redelivered != 0,
                exchange: AMQPCDecoding.string(got.exchange), routingKey: AMQPCDecoding.string(got.routing_key),
                remaining: got.message_count))
        case Method.basicGetEmpty:
            if let id = readerID(on: channel) { queueWasEmpty(readerID: id) }
        case Method.basicReturn:
            let returned = method.decoded.assumingMemoryBound(to: amqp_basic_return_t.self).pointee
            contents[channel] = ContentInProgress(kind: .returned(
                replyCode: Int(returned.reply_code), replyText: AMQPCDecoding.string(returned.reply_text),
                exchange: AMQPCDecoding.string(returned.exchange), routingKey: AMQPCDecoding.string(returned.routing_key)))
        case Method.basicAck where channel == Self.publishChannel:
            let ack = method.decoded.assumingMemoryBound(to: amqp_basic_ack_t.self).pointee
            resolveConfirms(ack.delivery_tag, multiple: ack.multiple != 0, nacked: false)
        case Method.basicNack where channel == Self.publishChannel:
            let nack = method.decoded.assumingMemoryBound(to: amqp_basic_nack_t.self).pointee
            resolveConfirms(nack.delivery_tag, multiple: nack.multiple != 0, nacked: true)
        case Method.basicCancel:
            if let id = consumers.values.first(where: { $0.channel == channel })?.id {
                logger.warning("the broker cancelled a consumer (queue deleted or moved); declaring it again and resubscribing", metadata: [
                    "queue": "\(consumers[id]!.queue)",
                ])
                consumers[id]?.mustRedeclare = true
                statistics.recordConsumerCancelledByBroker()
                unsubscribed(consumerID: id)
            }
        case Method.channelClose:
            let close = method.decoded.assumingMemoryBound(to: amqp_channel_close_t.self).pointee
            handleChannelClose(channel, code: Int(close.reply_code), text: AMQPCDecoding.string(close.reply_text))
        case Method.connectionClose:
            let close = method.decoded.assumingMemoryBound(to: amqp_connection_close_t.self).pointee
            if let connection {
                var closeOK = amqp_connection_close_ok_t()
                _ = amqp_send_method(connection, 0, Method.connectionCloseOK, &closeOK)
            }
            throw AMQPError(code: .connectionLost, message: "the broker closed the connection: \(AMQPCDecoding.string(close.reply_text))",
                            replyCode: Int(close.reply_code))
        case Method.connectionBlocked:
            let blocked = method.decoded.assumingMemoryBound(to: amqp_connection_blocked_t.self).pointee
            isBlocked = true
            logger.warning("the broker blocked publishing; publishes wait", metadata: ["reason": "\(AMQPCDecoding.string(blocked.reason))"])
        case Method.connectionUnblocked:
            isBlocked = false
            logger.notice("the broker unblocked publishing", metadata: ["waiting_publishes": "\(publishesWhileBlocked.count)"])
            flushPublishesWhileBlocked()
        default:
            break
        }
    }

    private func resolveConfirms(_ deliveryTag: UInt64, multiple: Bool, nacked: Bool) {
        for (waiter, outcome) in confirms.resolve(deliveryTag: deliveryTag, multiple: multiple, nacked: nacked) {
            switch outcome {
            case .confirmed:
                waiter.resume()
            case .nacked:
                waiter.resume(throwing: AMQPError(code: .publishNacked, message: "the broker nacked the message (an internal error in the broker); publish it again"))
            case .returned(let replyCode, let replyText):
                waiter.resume(throwing: AMQPError(code: .unroutable, message: "the message matched no queue: \(replyText)", replyCode: replyCode))
            }
        }
    }

    // MARK: - Synchronous methods

    /// Sends a method and handles frames until its reply arrives on the same channel.
    private func rpc(_ channel: UInt16, _ method: UInt32, _ arguments: UnsafeMutableRawPointer, expecting reply: UInt32) throws(AMQPError) -> RPCResult {
        guard let connection else { throw AMQPError(code: .connectionLost, message: "not connected") }
        try Self.check(amqp_send_method(connection, channel, method, arguments), doing: "send a method to the broker")
        return try awaitReply(on: channel, expecting: reply, timeout: Self.rpcTimeout)
    }

    @discardableResult
    private func awaitReply(on channel: UInt16, expecting reply: UInt32, timeout: Duration) throws(AMQPError) -> RPCResult {
        rpcWait = RPCWait(channel: channel, expected: reply)
        defer { rpcWait = nil }
        let deadline = ContinuousClock.now + timeout
        while true {
            loopTick.store(Self.monotonicNanoseconds(), ordering: .relaxed)
            _ = try readAvailableFrames(limit: .max)
            socketMayBeReadable = true
            if let error = rpcWait?.error { throw error }
            if let result = rpcWait?.result { return result }
            guard connection != nil else { throw AMQPError(code: .connectionLost, message: "the connection closed during a request") }
            let now = ContinuousClock.now
            guard now < deadline else {
                throw AMQPError(code: .timeout, message: "the broker did not answer within \(timeout)")
            }
            _ = waitForEvents(timeout: min(deadline - now, pollInterval))
        }
    }

    private static func rpcResult(_ method: amqp_method_t) -> RPCResult {
        switch method.id {
        case Method.queuePurgeOK:
            .messageCount(method.decoded.assumingMemoryBound(to: amqp_queue_purge_ok_t.self).pointee.message_count)
        case Method.queueDeleteOK:
            .messageCount(method.decoded.assumingMemoryBound(to: amqp_queue_delete_ok_t.self).pointee.message_count)
        default:
            .ok
        }
    }

    // MARK: - Watchdog

    /// Shuts the socket down when the loop has been stuck in one C call for too long, so that the call
    /// returns with an error and the connection is recovered instead of hanging forever.
    private func watch() {
        let limit = UInt64(max(configuration.connectTimeout.seconds * 2, Double(configuration.heartbeatSeconds) * 2, 20) * 1e9)
        while inbox.withLock({ !$0.isFinished }) {
            Thread.sleep(forTimeInterval: 1)
            let tick = loopTick.load(ordering: .relaxed)
            guard tick != 0, Self.monotonicNanoseconds() - tick > limit else { continue }
            let socket = socketDescriptor.exchange(-1, ordering: .relaxed)
            guard socket >= 0 else { continue }
            logger.error("the broker connection stalled inside librabbitmq; shutting its socket down to recover")
            _ = shutdown(socket, Int32(SHUT_RDWR))
        }
    }

    // MARK: - Helpers

    private static func check(_ status: Int32, doing action: String) throws(AMQPError) {
        guard status != AMQP_STATUS_OK.rawValue else { return }
        throw AMQPError(code: .connectionLost, message: "could not \(action): \(statusText(status))")
    }

    private static func check(_ reply: amqp_rpc_reply_t, doing action: String, failureCode: AMQPError.Code) throws(AMQPError) {
        switch reply.reply_type {
        case AMQP_RESPONSE_NORMAL:
            return
        case AMQP_RESPONSE_SERVER_EXCEPTION where reply.reply.id == Method.connectionClose:
            let close = reply.reply.decoded.assumingMemoryBound(to: amqp_connection_close_t.self).pointee
            throw AMQPError(code: failureCode, message: "could not \(action): \(AMQPCDecoding.string(close.reply_text))",
                            replyCode: Int(close.reply_code))
        case AMQP_RESPONSE_LIBRARY_EXCEPTION:
            throw AMQPError(code: .connectionFailed, message: "could not \(action): \(statusText(reply.library_error))")
        default:
            throw AMQPError(code: .connectionFailed, message: "could not \(action): the broker closed the connection")
        }
    }

    private static func openError(_ status: Int32, endpoint: AMQPEndpoint) -> AMQPError {
        let text = statusText(status)
        switch status {
        case AMQP_STATUS_SSL_PEER_VERIFY_FAILED.rawValue:
            return AMQPError(code: .tls, message: "the certificate of \(endpoint.host):\(endpoint.port) is not signed by a trusted CA (set the CA file): \(text)")
        case AMQP_STATUS_SSL_HOSTNAME_VERIFY_FAILED.rawValue:
            return AMQPError(code: .tls, message: "the certificate of \(endpoint.host):\(endpoint.port) is not issued for host '\(endpoint.host)': \(text)")
        case AMQP_STATUS_SSL_CONNECTION_FAILED.rawValue, AMQP_STATUS_SSL_ERROR.rawValue:
            return AMQPError(code: .tls, message: "the TLS handshake with \(endpoint.host):\(endpoint.port) failed: \(text)")
        default:
            return AMQPError(code: .connectionFailed, message: "could not connect to \(endpoint.host):\(endpoint.port): \(text)")
        }
    }

    private static func statusText(_ status: Int32) -> String {
        String(cString: amqp_error_string2(status))
    }

    private static func makeTimeval(_ duration: Duration) -> timeval {
        let parts = duration.components
        return timeval(tv_sec: Int(parts.seconds), tv_usec: Int(parts.attoseconds / 1_000_000_000_000))
    }

    private static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}

/// AMQP 0-9-1 method ids (class << 16 | method); librabbitmq defines them as casts Swift cannot import.
private enum Method {
    static let connectionClose: UInt32 = 0x000A_0032
    static let connectionCloseOK: UInt32 = 0x000A_0033
    static let connectionBlocked: UInt32 = 0x000A_003C
    static let connectionUnblocked: UInt32 = 0x000A_003D
    static let channelOpen: UInt32 = 0x0014_000A
    static let channelOpenOK: UInt32 = 0x0014_000B
    static let channelClose: UInt32 = 0x0014_0028
    static let channelCloseOK: UInt32 = 0x0014_0029
    static let exchangeDeclare: UInt32 = 0x0028_000A
    static let exchangeDeclareOK: UInt32 = 0x0028_000B
    static let exchangeDelete: UInt32 = 0x0028_0014
    static let exchangeDeleteOK: UInt32 = 0x0028_0015
    static let queueDeclare: UInt32 = 0x0032_000A
    static let queueDeclareOK: UInt32 = 0x0032_000B
    static let queueBind: UInt32 = 0x0032_0014
    static let queueBindOK: UInt32 = 0x0032_0015
    static let queuePurge: UInt32 = 0x0032_001E
    static let queuePurgeOK: UInt32 = 0x0032_001F
    static let queueDelete: UInt32 = 0x0032_0028
    static let queueDeleteOK: UInt32 = 0x0032_0029
    static let basicQos: UInt32 = 0x003C_000A
    static let basicQosOK: UInt32 = 0x003C_000B
    static let basicConsume: UInt32 = 0x003C_0014
    static let basicConsumeOK: UInt32 = 0x003C_0015
    static let basicCancel: UInt32 = 0x003C_001E
    static let basicGet: UInt32 = 0x003C_0046
    static let basicGetOK: UInt32 = 0x003C_0047
    static let basicGetEmpty: UInt32 = 0x003C_0048
    static let basicReturn: UInt32 = 0x003C_0032
    static let basicDeliver: UInt32 = 0x003C_003C
    static let basicAck: UInt32 = 0x003C_0050
    static let basicNack: UInt32 = 0x003C_0078
    static let confirmSelect: UInt32 = 0x0055_000A
    static let confirmSelectOK: UInt32 = 0x0055_000B
}

extension AMQPError {
    /// Whether the connection can no longer be trusted after this error, so the driver must recover it.
    fileprivate var endsTheConnection: Bool { code == .connectionLost || code == .timeout }
}

extension AMQPTopology {
    /// Adds what `other` declares, so that recovery re-declares everything declared so far, once.
    mutating func merge(_ other: AMQPTopology) {
        for exchange in other.exchanges where !exchanges.contains(exchange) { exchanges.append(exchange) }
        for queue in other.queues where !queues.contains(queue) { queues.append(queue) }
        for binding in other.bindings where !bindings.contains(binding) { bindings.append(binding) }
    }
}

extension AMQPConnectionDriver.RPCResult {
    var count: UInt32 {
        if case .messageCount(let count) = self { return count }
        return 0
    }
}
