/// Queues read with basic.get, one message at a time, each on a channel of its own.
extension AMQPConnectionDriver {
    /// A queue read with basic.get on a channel of its own; never recovered, see ``AMQPQueueReader``.
    struct Reader {
        let queue: String
        let channel: UInt16
        let generation: UInt64
        var acks = AckCoalescer()
        /// The caller of the basic.get in flight: one at a time, as the protocol wants.
        var waiting: Reply<AMQPQueueReader.Message?>?
        /// Why the reader's channel is gone; the broker has taken its unsettled messages back.
        var lost: AMQPError?
    }

    func openReader(queue: String, reply: Reply<Int>) throws(AMQPError) {
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
    }

    // MARK: - Reading with basic.get

    /// Asks for the next message; the reply comes with basic.get-ok and its content, or basic.get-empty.
    func requestNext(readerID id: Int, reply: Reply<AMQPQueueReader.Message?>) throws(AMQPError) {
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
        readers[id]?.waiting = reply
        try connection.sendGet(queue: reader.queue, on: reader.channel, arena: arena)
    }

    func fetched(
        _ message: AMQPMessage, headersTruncated: Bool, readerID id: Int, deliveryTag: UInt64, redelivered: Bool,
        remaining: UInt32
    ) {
        guard let reader = readers[id], reader.lost == nil else { return }
        let delivery = AMQPDelivery(
            exchange: message.exchange, routingKey: message.routingKey, properties: message.properties,
            body: message.body, bodySize: message.body.count, headersTruncated: headersTruncated,
            redelivered: redelivered, deliveryTag: deliveryTag,
            consumerID: id, channelGeneration: reader.generation, settler: self)
        readers[id]?.acks.received(deliveryTag)
        readers[id]?.waiting = nil
        statistics.recordDelivery()
        reader.waiting?.resume(returning: AMQPQueueReader.Message(delivery: delivery, remaining: Int(remaining)))
    }

    func queueWasEmpty(readerID id: Int) {
        let waiting = readers[id]?.waiting
        readers[id]?.waiting = nil
        waiting?.resume(returning: nil)
    }

    /// Sends the acks so far, hands back what is still unsettled and closes the channel.
    ///
    /// The rest goes back with one `multiple` basic.nack rather than with the channel's close: RabbitMQ 4.3
    /// and later count a message returned by a closing channel towards a quorum queue's delivery limit,
    /// and one returned by basic.nack not.
    func closeReader(_ id: Int) throws(AMQPError) {
        guard let reader = readers.removeValue(forKey: id) else { return }
        reader.waiting?.resume(throwing: AMQPError(code: .closed, message: "the queue reader was closed"))
        guard reader.lost == nil, let connection else { return }
        var acks = reader.acks
        try sendAcks(&acks, on: reader.channel)
        if let last = acks.lastUnsettledTag {
            try connection.nack(last, multiple: true, requeue: true, on: reader.channel, doing: "hand back what a queue reader read")
        }
        _ = try rpc(reader.channel, expecting: AMQPMethod.channelCloseOK) { wire throws(AMQPError) in
            try wire.sendChannelClose(reader.channel)
        }
        openChannels.remove(reader.channel)
    }

    func readerLost(_ id: Int, _ error: AMQPError) {
        guard let reader = readers[id] else { return }
        readers[id]?.lost = error
        readers[id]?.waiting = nil
        readers[id]?.acks = AckCoalescer()
        reader.waiting?.resume(throwing: error)
    }

    func readerID(on channel: UInt16) -> Int? {
        readers.first { $0.value.channel == channel }?.key
    }
}
