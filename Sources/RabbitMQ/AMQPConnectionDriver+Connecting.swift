import Foundation
import Logging
import Synchronization

/// Connecting, recovery, channels, declarations and synchronous requests.
extension AMQPConnectionDriver {
    // MARK: - Connecting and recovery

    func connectToNextEndpoints(startingAt firstIndex: Int) {
        var lastError: AMQPError?
        for offset in configuration.endpoints.indices {
            let endpoint = configuration.endpoints[(firstIndex + offset) % configuration.endpoints.count]
            do {
                let wire = try AMQPWire.open(
                    endpoint, configuration: configuration, frameMax: Self.frameMax,
                    clientProperties: clientPropertiesTable(for: endpoint), arena: arena
                ) { socket in
                    socketDescriptor.store(socket, ordering: .relaxed)
                }
                stateMachine.opened(wire, gathersPublishes: !endpoint.usesTLS)
                try setUpChannelsAndTopology()
                onConnected(to: endpoint)
                return
            } catch {
                lastError = error
                logger.warning(
                    "could not connect to the broker", error: error,
                    metadata: [
                        "server.address": "\(endpoint.host)", "server.port": .stringConvertible(endpoint.port),
                    ])
                discardConnection(stateMachine.openFailed())
            }
        }
        let error = lastError ?? AMQPError(code: .connectionFailed, message: "no broker endpoint configured")
        switch stateMachine.roundFailed(backoff: configuration.reconnectBackoff, mayPass: error.isRetryable) {
        case .failStart(let waiter):
            waiter.resume(throwing: error)
            finish()
        case .retry(let attempt, let delay):
            logger.info(
                "retrying the broker connection",
                metadata: [
                    "amqp.reconnect.rounds": .stringConvertible(attempt),
                    "amqp.reconnect.delay_ms": .stringConvertible(Int(delay.seconds * 1000)),
                ])
        }
    }

    private func onConnected(to endpoint: AMQPEndpoint) {
        if let connection { negotiatedFrameMax.store(connection.frameMax, ordering: .relaxed) }
        connected.store(true, ordering: .relaxed)
        // A block notice may have come during set-up.
        blocked.store(stateMachine.isBlocked, ordering: .relaxed)
        switch stateMachine.setUp() {
        case .resumeStart(let waiter):
            logger.info(
                "connected to the broker",
                metadata: ["server.address": "\(endpoint.host)", "server.port": .stringConvertible(endpoint.port)])
            waiter.resume()
        case .reconnected(let attempts):
            statistics.recordReconnect()
            onReconnect()
            logger.notice(
                "reconnected to the broker; topology re-declared and consumers resumed",
                metadata: [
                    "server.address": "\(endpoint.host)", "server.port": .stringConvertible(endpoint.port),
                    "amqp.reconnect.rounds": .stringConvertible(attempts),
                ])
        }
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
        try openChannel(Self.controlChannel)
        try openPublishChannel()
        try declare(topology)
        for id in consumers.keys.sorted() {
            consumers[id]?.isSubscribed = false
            consumers[id]?.failedSubscriptions = 0
            do {
                try subscribe(consumerID: id)
            } catch  where error.code == .channelClosed {
                logger.error(
                    "could not resume a consumer", error: error, metadata: ["messaging.destination.name": "\(consumers[id]?.queue ?? "")"])
            }
        }
    }

    /// Drops the connection after a failure: fails what was in flight, keeps consumers for recovery.
    func tearDown(because error: AMQPError) {
        logger.warning("lost the broker connection; will recover", error: error)
        discardConnection(stateMachine.connectionLost(backoff: configuration.reconnectBackoff))
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
            readerLost(
                id,
                AMQPError(
                    code: .connectionLost,
                    message:
                        "the broker connection was lost while reading queue '\(readers[id]!.queue)'; the messages it had not settled went back to the queue: \(error.message)"
                ))
        }
    }

    /// Destroys `wire` (a connection the state machine let go of) and forgets what belonged to it.
    func discardConnection(_ wire: AMQPWire?) {
        connected.store(false, ordering: .relaxed)
        blocked.store(false, ordering: .relaxed)
        socketDescriptor.store(-1, ordering: .relaxed)
        wire?.destroy()
        openChannels.removeAll()
        contents.removeAll()
        writeBuffer.discard()
        rpcWait = nil
    }

    /// Says goodbye to the broker; ``finish()`` then destroys the connection.
    func closeConnection(replyText: String) {
        guard let connection, connection.sendConnectionClose(replyText: replyText, arena: arena) else { return }
        _ = try? awaitReply(on: 0, expecting: AMQPMethod.connectionCloseOK, timeout: .seconds(2))
        logger.info("closed the broker connection")
    }

    // MARK: - Channels

    func openChannel(_ channel: UInt16) throws(AMQPError) {
        _ = try rpc(channel, expecting: AMQPMethod.channelOpenOK) { wire throws(AMQPError) in try wire.sendChannelOpen(channel) }
        openChannels.insert(channel)
        channelsToRepair.remove(channel)
    }

    func openPublishChannel() throws(AMQPError) {
        try openChannel(Self.publishChannel)
        _ = try rpc(Self.publishChannel, expecting: AMQPMethod.confirmSelectOK) { wire throws(AMQPError) in
            try wire.sendConfirmSelect(Self.publishChannel)
        }
    }

    private func ensureControlChannel() throws(AMQPError) {
        if !openChannels.contains(Self.controlChannel) { try openChannel(Self.controlChannel) }
    }

    /// Reopens channels the broker closed, and resubscribes consumers whose backoff has passed.
    func repairChannels() throws(AMQPError) {
        if channelsToRepair.contains(Self.publishChannel) {
            do {
                try openPublishChannel()
                flushPublishesWhileBlocked()
            } catch  where error.code == .channelClosed {
                logger.error("could not reopen the publishing channel", error: error)
            }
        }
        let now = ContinuousClock.now
        for consumer in consumers.values where !consumer.isSubscribed && !consumer.isCancelled {
            guard consumer.resubscribeAt.map({ $0 <= now }) ?? true else { continue }
            do {
                try subscribe(consumerID: consumer.id)
            } catch  where error.code == .channelClosed {
                logger.error("could not resume a consumer", error: error, metadata: ["messaging.destination.name": "\(consumer.queue)"])
            }
        }
    }

    func handleChannelClose(_ channel: UInt16, code: Int, text: String) {
        connection?.sendChannelCloseOK(channel)
        openChannels.remove(channel)
        contents[channel] = nil
        let error = AMQPError(code: .channelClosed, message: "the broker closed channel \(channel): \(text)", replyCode: code)
        if rpcWait?.channel == channel { rpcWait?.error = error }
        statistics.recordChannelClosedByBroker()
        logger.warning(
            "the broker closed a channel",
            metadata: [
                "amqp.channel": .stringConvertible(channel), "amqp.reply_code": .stringConvertible(code), "amqp.reply_text": "\(text)",
            ])
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

    func declare(_ declaration: AMQPTopology) throws(AMQPError) {
        try ensureControlChannel()
        let channel = Self.controlChannel
        for exchange in declaration.exchanges {
            _ = try rpc(channel, expecting: AMQPMethod.exchangeDeclareOK) { wire throws(AMQPError) in
                try wire.sendDeclare(exchange, on: channel, arena: arena)
            }
        }
        for queue in declaration.queues {
            _ = try rpc(channel, expecting: AMQPMethod.queueDeclareOK) { wire throws(AMQPError) in
                try wire.sendDeclare(queue, on: channel, arena: arena)
            }
        }
        for binding in declaration.bindings {
            _ = try rpc(channel, expecting: AMQPMethod.queueBindOK) { wire throws(AMQPError) in
                try wire.sendBind(binding, on: channel, arena: arena)
            }
        }
    }

    func perform(_ operation: QueueOperation) throws(AMQPError) -> UInt32 {
        try ensureControlChannel()
        let channel = Self.controlChannel
        switch operation {
        case .matches(let queue):
            _ = try rpc(channel, expecting: AMQPMethod.queueDeclareOK) { wire throws(AMQPError) in
                try wire.sendDeclare(queue, passive: true, on: channel, arena: arena)
            }
            do {
                _ = try rpc(channel, expecting: AMQPMethod.queueDeclareOK) { wire throws(AMQPError) in
                    try wire.sendDeclare(queue, on: channel, arena: arena)
                }
                return QueueMatch.matches.rawValue
            } catch  where error.replyCode == 406 {
                return QueueMatch.differs.rawValue
            } catch  where error.replyCode == 403 {
                return QueueMatch.refused.rawValue
            }
        case .purge(let queue):
            return try rpc(channel, expecting: AMQPMethod.queuePurgeOK) { wire throws(AMQPError) in
                try wire.sendPurge(queue: queue, on: channel, arena: arena)
            }.count
        case .deleteQueue(let queue):
            return try rpc(channel, expecting: AMQPMethod.queueDeleteOK) { wire throws(AMQPError) in
                try wire.sendDelete(queue: queue, on: channel, arena: arena)
            }.count
        case .deleteExchange(let exchange):
            _ = try rpc(channel, expecting: AMQPMethod.exchangeDeleteOK) { wire throws(AMQPError) in
                try wire.sendDelete(exchange: exchange, on: channel, arena: arena)
            }
            return 0
        }
    }

    // MARK: - Synchronous methods

    /// Sends a method with `send` and handles frames until its reply arrives on the same channel.
    func rpc(_ channel: UInt16, expecting reply: UInt32, _ send: (AMQPWire) throws(AMQPError) -> Void) throws(AMQPError) -> RPCResult {
        guard let connection else { throw AMQPError(code: .connectionLost, message: "not connected") }
        try send(connection)
        return try awaitReply(on: channel, expecting: reply, timeout: Self.rpcTimeout)
    }

    @discardableResult
    func awaitReply(on channel: UInt16, expecting reply: UInt32, timeout: Duration) throws(AMQPError) -> RPCResult {
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
}
