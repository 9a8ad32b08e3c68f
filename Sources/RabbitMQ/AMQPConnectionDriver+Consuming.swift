import Logging
import Synchronization

/// Consumers, settling deliveries, and the frames that arrive: content assembly, deliveries, confirms,
/// and the methods the broker sends unasked.
extension AMQPConnectionDriver {
    struct Consumer {
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

    enum PendingContent {
        case delivery(deliveryTag: UInt64, redelivered: Bool, exchange: String, routingKey: String)
        case fetched(readerID: Int, deliveryTag: UInt64, redelivered: Bool, exchange: String, routingKey: String, remaining: UInt32)
        case returned(replyCode: Int, replyText: String, exchange: String, routingKey: String)
    }

    struct ContentInProgress {
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

    // MARK: - Consuming

    func subscribe(consumerID id: Int) throws(AMQPError) {
        guard var consumer = consumers[id] else { return }
        do {
            if consumer.mustRedeclare { try declare(topology) }
            if !openChannels.contains(consumer.channel) { try openChannel(consumer.channel) }
            let channel = consumer.channel
            _ = try rpc(channel, expecting: AMQPMethod.basicQosOK) { wire throws(AMQPError) in
                try wire.sendQos(prefetch: consumer.prefetch, on: channel)
            }
            _ = try rpc(channel, expecting: AMQPMethod.basicConsumeOK) { wire throws(AMQPError) in
                try wire.sendConsume(queue: consumer.queue, consumerTag: "\(configuration.connectionName).\(id)", on: channel, arena: arena)
            }
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

    func unsubscribed(consumerID id: Int) {
        guard consumers[id] != nil else { return }
        consumers[id]?.isSubscribed = false
        consumers[id]?.acks = AckCoalescer()
        if consumers[id]?.isCancelled == true {
            consumers.removeValue(forKey: id)?.deliveries.finish()
        } else {
            scheduleResubscribe(consumerID: id)
        }
    }

    func scheduleResubscribe(consumerID id: Int) {
        guard let consumer = consumers[id] else { return }
        let delay = configuration.reconnectBackoff.delay(forAttempt: consumer.failedSubscriptions)
        consumers[id]?.failedSubscriptions += 1
        consumers[id]?.resubscribeAt = .now + delay
    }

    /// Stops deliveries; the channel closes (returning what is unacked) once the in-flight ones are settled.
    func cancel(consumerID id: Int) throws(AMQPError) {
        guard let consumer = consumers[id], !consumer.isCancelled else { return }
        consumers[id]?.isCancelled = true
        guard consumer.isSubscribed, let connection else {
            consumers.removeValue(forKey: id)?.deliveries.finish()
            return
        }
        try connection.sendCancel(consumerTag: "\(configuration.connectionName).\(id)", on: consumer.channel, arena: arena)
        consumer.deliveries.finish()
        try closeChannelIfDrained(consumerID: id)
    }

    func closeChannelIfDrained(consumerID id: Int) throws(AMQPError) {
        guard let consumer = consumers[id], consumer.isCancelled, consumer.acks.unsettledCount == 0, let connection else { return }
        consumers[id] = nil
        try connection.sendChannelClose(consumer.channel, doing: "close a consumer's channel")
        openChannels.remove(consumer.channel)
    }

    func settle(consumerID: Int, generation: UInt64, deliveryTag: UInt64, _ settlement: AMQPSettlement) throws(AMQPError) {
        if var reader = readers[consumerID], reader.generation == generation, reader.lost == nil {
            try settle(deliveryTag, settlement, in: &reader.acks, on: reader.channel)
            readers[consumerID] = reader
            return
        }
        guard var consumer = consumers[consumerID], consumer.generation == generation, consumer.isSubscribed else {
            statistics.recordStaleSettlement()
            logger.debug(
                "ignored the settlement of a delivery from a closed channel",
                metadata: ["messaging.rabbitmq.message.delivery_tag": .stringConvertible(deliveryTag)])
            return
        }
        try settle(deliveryTag, settlement, in: &consumer.acks, on: consumer.channel)
        consumers[consumerID] = consumer
        try closeChannelIfDrained(consumerID: consumerID)
    }

    /// Acks wait in `acks` to be coalesced; nacks and rejects are sent at once.
    func settle(_ deliveryTag: UInt64, _ settlement: AMQPSettlement, in acks: inout AckCoalescer, on channel: UInt16) throws(AMQPError) {
        guard let connection else { return }
        switch settlement {
        case .ack:
            if !acks.ack(deliveryTag) {
                logger.warning(
                    "ignored a second settlement of a delivery",
                    metadata: ["messaging.rabbitmq.message.delivery_tag": .stringConvertible(deliveryTag)])
            }
        case .nack(let requeue):
            guard acks.remove(deliveryTag) else { return }
            try connection.nack(deliveryTag, multiple: false, requeue: requeue, on: channel)
        case .reject(let requeue):
            guard acks.remove(deliveryTag) else { return }
            try connection.reject(deliveryTag, requeue: requeue, on: channel)
        }
    }

    func flushAcks() throws(AMQPError) {
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
    func sendAcks(_ acks: inout AckCoalescer, on channel: UInt16) throws(AMQPError) -> Bool {
        guard let connection else { return false }
        let frames = acks.drain()
        guard !frames.isEmpty else { return false }
        for ack in frames {
            try connection.ack(ack.deliveryTag, multiple: ack.multiple, on: channel)
        }
        statistics.recordAckFrames(frames.count)
        return true
    }

    // MARK: - Reading frames

    /// Handles every frame that can be read without waiting; returns how many there were.
    func readAvailableFrames(limit: Int) throws(AMQPError) -> Int {
        guard let connection else { return 0 }
        var count = 0
        while count < limit {
            guard let frame = try connection.nextFrame() else { break }
            count += 1
            try handle(frame)
            if self.connection != nil { connection.releaseBuffers(on: frame.channel) }
            // Stop at a synchronous reply: what follows it (deliveries after consume-ok) needs the caller's state.
            if let wait = rpcWait, wait.result != nil || wait.error != nil { break }
        }
        return count
    }

    func handle(_ frame: AMQPInboundFrame) throws(AMQPError) {
        switch frame {
        case .method(let channel, let id, let method):
            try handleMethod(method, id: id, on: channel)
        case .header(let channel, let properties, let headersTruncated, let bodySize):
            // Taken out of the dictionary so that appending to its body does not copy it.
            guard var content = contents.removeValue(forKey: channel) else { return }
            if let properties {
                content.properties = properties
                content.headersTruncated = headersTruncated
            }
            content.bodySize = bodySize
            content.body.reserveCapacity(min(bodySize, content.bodyLimit))
            try store(content, on: channel)
        case .body(let channel, let fragment):
            guard var content = contents.removeValue(forKey: channel) else { return }
            let kept = min(fragment.count, max(content.bodyLimit - content.body.count, 0))
            if kept > 0, let bytes = fragment.baseAddress {
                content.body.append(contentsOf: UnsafeRawBufferPointer(start: bytes, count: kept))
            }
            content.bodyReceived += fragment.count
            try store(content, on: channel)
        case .other:
            break
        }
    }

    func store(_ content: ContentInProgress, on channel: UInt16) throws(AMQPError) {
        guard let size = content.bodySize, content.bodyReceived >= size else {
            contents[channel] = content
            return
        }
        contents[channel] = nil
        switch content.kind {
        case .delivery(let deliveryTag, let redelivered, let exchange, let routingKey):
            try deliver(
                AMQPMessage(exchange: exchange, routingKey: routingKey, properties: content.properties, body: content.body),
                bodySize: size, headersTruncated: content.headersTruncated,
                deliveryTag: deliveryTag, redelivered: redelivered, on: channel)
        case .fetched(let readerID, let deliveryTag, let redelivered, let exchange, let routingKey, let remaining):
            fetched(
                AMQPMessage(exchange: exchange, routingKey: routingKey, properties: content.properties, body: content.body),
                headersTruncated: content.headersTruncated, readerID: readerID, deliveryTag: deliveryTag, redelivered: redelivered,
                remaining: remaining)
        case .returned(let replyCode, let replyText, let exchange, let routingKey):
            confirms.returned(
                .init(exchange: exchange, routingKey: routingKey, messageID: content.properties.messageID, body: content.body),
                replyCode: replyCode, replyText: replyText)
        }
    }

    func deliver(
        _ message: AMQPMessage, bodySize: Int, headersTruncated: Bool, deliveryTag: UInt64, redelivered: Bool,
        on channel: UInt16
    ) throws(AMQPError) {
        guard let connection else { return }
        if let consumer = consumers.values.first(where: { $0.channel == channel && $0.isSubscribed && !$0.isCancelled }) {
            let delivery = AMQPDelivery(
                exchange: message.exchange, routingKey: message.routingKey, properties: message.properties,
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
        try connection.reject(deliveryTag, requeue: true, on: channel, doing: "return a delivery nobody consumes")
    }

    func handleMethod(_ method: AMQPInboundMethod, id: UInt32, on channel: UInt16) throws(AMQPError) {
        if let wait = rpcWait, wait.channel == channel, wait.expected == id {
            rpcWait?.result = method.rpcResult
            return
        }
        switch method {
        case .deliver(let deliveryTag, let redelivered, let exchange, let routingKey):
            contents[channel] = ContentInProgress(
                kind: .delivery(deliveryTag: deliveryTag, redelivered: redelivered, exchange: exchange, routingKey: routingKey),
                bodyLimit: consumers.values.first { $0.channel == channel }?.maximumBodyBytes ?? Int.max)
        case .getOK(let deliveryTag, let redelivered, let exchange, let routingKey, let remaining):
            guard let id = readerID(on: channel) else { break }
            contents[channel] = ContentInProgress(
                kind: .fetched(
                    readerID: id, deliveryTag: deliveryTag, redelivered: redelivered, exchange: exchange, routingKey: routingKey,
                    remaining: remaining))
        case .getEmpty:
            if let id = readerID(on: channel) { queueWasEmpty(readerID: id) }
        case .returned(let replyCode, let replyText, let exchange, let routingKey):
            contents[channel] = ContentInProgress(
                kind: .returned(
                    replyCode: replyCode, replyText: replyText, exchange: exchange, routingKey: routingKey))
        case .ack(let deliveryTag, let multiple) where channel == Self.publishChannel:
            resolveConfirms(deliveryTag, multiple: multiple, nacked: false)
        case .nack(let deliveryTag, let multiple) where channel == Self.publishChannel:
            resolveConfirms(deliveryTag, multiple: multiple, nacked: true)
        case .cancel:
            if let id = consumers.values.first(where: { $0.channel == channel })?.id {
                logger.warning(
                    "the broker cancelled a consumer (queue deleted or moved); declaring it again and resubscribing",
                    metadata: [
                        "messaging.destination.name": "\(consumers[id]!.queue)"
                    ])
                consumers[id]?.mustRedeclare = true
                statistics.recordConsumerCancelledByBroker()
                unsubscribed(consumerID: id)
            }
        case .channelClose(let replyCode, let replyText):
            handleChannelClose(channel, code: replyCode, text: replyText)
        case .connectionClose(let replyCode, let replyText):
            connection?.sendConnectionCloseOK()
            throw AMQPError(code: .connectionLost, message: "the broker closed the connection: \(replyText)", replyCode: replyCode)
        case .blocked(let reason):
            stateMachine.blocked(true)
            blocked.store(stateMachine.isBlocked, ordering: .relaxed)
            logger.warning("the broker blocked publishing; publishes wait", metadata: ["amqp.blocked.reason": "\(reason)"])
        case .unblocked:
            stateMachine.blocked(false)
            blocked.store(false, ordering: .relaxed)
            logger.notice(
                "the broker unblocked publishing", metadata: ["amqp.publishes.blocked": .stringConvertible(publishesWhileBlocked.count)])
            flushPublishesWhileBlocked()
        case .ack, .nack, .reply:
            break
        }
    }

    func resolveConfirms(_ deliveryTag: UInt64, multiple: Bool, nacked: Bool) {
        for (waiter, outcome) in confirms.resolve(deliveryTag: deliveryTag, multiple: multiple, nacked: nacked) {
            switch outcome {
            case .confirmed:
                waiter.resume()
            case .nacked:
                waiter.resume(
                    throwing: AMQPError(
                        code: .publishNacked, message: "the broker nacked the message (an internal error in the broker); publish it again"))
            case .returned(let replyCode, let replyText):
                waiter.resume(
                    throwing: AMQPError(code: .unroutable, message: "the message matched no queue: \(replyText)", replyCode: replyCode))
            }
        }
    }
}
