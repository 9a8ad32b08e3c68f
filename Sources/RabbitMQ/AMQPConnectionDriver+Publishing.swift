import Logging

/// Publishing with confirms: gathered publishes, publishes held while the broker blocks, and confirm deadlines.
extension AMQPConnectionDriver {
    // MARK: - Publishing

    func publish(_ message: AMQPMessage, reply: Reply<Void>, deadline: UInt64? = nil) throws(AMQPError) {
        let deadline = deadline ?? Self.monotonicNanoseconds() + UInt64(configuration.confirmTimeout.seconds * 1e9)
        guard !stateMachine.isBlocked else {
            publishesWhileBlocked.append((message, reply, deadline))
            return
        }
        guard let connection, openChannels.contains(Self.publishChannel) else {
            reply.resume(throwing: AMQPError(code: .channelClosed, message: "the publishing channel is being reopened"))
            return
        }
        // Sent frame by frame (TLS), such a message would fail only after its method frame went out, which
        // breaks the connection; the gathering encoder below refuses oversized properties before writing anything.
        if let error = message.shortStringError {
            reply.resume(throwing: error)
            return
        }
        let gathers = stateMachine.gathersPublishes
        if !gathers, message.properties.encodedByteCount > maximumPropertiesByteCount {
            reply.resume(throwing: AMQPError.propertiesTooLarge(message.properties))
            return
        }
        let status = connection.publish(message, on: Self.publishChannel, gatheringInto: &writeBuffer, gathers: gathers, arena: arena)
        guard status == AMQPWire.statusOK else {
            let text = AMQPWire.statusText(Int32(status))
            guard gathers else {
                let error = AMQPError(code: .connectionLost, message: "publishing failed: \(text)")
                reply.resume(throwing: error)
                throw error
            }
            // Nothing was gathered: the connection and the other publishes are unaffected.
            reply.resume(
                throwing: AMQPError(
                    code: .protocolError, message: "the message cannot be encoded (its properties do not fit in one frame): \(text)"))
            return
        }
        let returnKey =
            message.mandatory
            ? PublisherConfirmTracker<Reply<Void>>.ReturnKey(
                exchange: message.exchange, routingKey: message.routingKey,
                messageID: message.properties.messageID, body: message.body)
            : nil
        confirms.published(reply, returnKey: returnKey, deadline: deadline)
        statistics.recordPublish()
    }

    func writeGatheredPublishes() throws(AMQPError) {
        guard !writeBuffer.isEmpty, let connection else { return }
        try writeBuffer.write(to: connection.socket)
        statistics.recordPublishWrite()
    }

    func flushPublishesWhileBlocked() {
        let waiting = publishesWhileBlocked
        publishesWhileBlocked.removeAll()
        for (message, reply, deadline) in waiting { submit(.publish(message, reply, deadline: deadline)) }
    }

    /// Fails the publishes whose confirm did not come in time: a broker that takes a message but never
    /// confirms it (a long resource alarm, a quorum queue without a majority) must not hold the
    /// publishers forever. Whether the broker has the message is unknown, as after a lost connection.
    func expireConfirms() {
        let now = Self.monotonicNanoseconds()
        let expired = confirms.expire(at: now)
        let blocked = publishesWhileBlocked.filter { $0.deadline <= now }
        guard !expired.isEmpty || !blocked.isEmpty else { return }
        publishesWhileBlocked.removeAll { $0.deadline <= now }
        let timeout = configuration.confirmTimeout
        logger.warning(
            "publishes went unconfirmed past the confirm timeout; failing them",
            metadata: [
                "amqp.publishes.unconfirmed": .stringConvertible(expired.count),
                "amqp.publishes.blocked": .stringConvertible(blocked.count),
                "amqp.confirm.timeout_ms": .stringConvertible(Int(timeout.seconds * 1000)),
            ])
        statistics.recordConfirmTimeouts(expired.count + blocked.count)
        let error = AMQPError(
            code: .timeout, message: "the broker did not confirm the publish within \(timeout); it may or may not have the message")
        for waiter in expired { waiter.resume(throwing: error) }
        for (_, waiter, _) in blocked { waiter.resume(throwing: error) }
    }
}
