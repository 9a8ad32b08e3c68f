/// A queue read message by message (basic.get) on a channel of its own, for tools that look into a
/// queue instead of consuming it.
///
/// A message read stays unacknowledged, so no consumer gets it meanwhile, until it is settled or the
/// reader is closed. Closing sends the acks and hands every message still unsettled back to the broker,
/// which puts it back in its place in a classic queue, behind the others in a quorum queue. Unlike a
/// consumer a reader is not recovered: after a lost connection its reads fail, and the broker has taken
/// its unsettled messages back.
public struct AMQPQueueReader: Sendable {
    /// A message read from the queue.
    public struct Message: Sendable {
        public let delivery: AMQPDelivery
        /// How many messages were ready in the queue after this one when it was read (basic.get-ok's message-count).
        public let remaining: Int
    }

    public let queue: String
    let id: Int
    let driver: AMQPConnectionDriver

    init(queue: String, id: Int, driver: AMQPConnectionDriver) {
        self.queue = queue
        self.id = id
        self.driver = driver
    }

    /// The next ready message, or nil when the queue has none. One read at a time.
    ///
    /// Throws ``AMQPError/Code/channelClosed`` with the broker's reason (404 when the queue does not
    /// exist), or ``AMQPError/Code/connectionLost`` when the connection was lost since the reader opened.
    public func next() async throws -> Message? {
        try await withCheckedThrowingContinuation { continuation in
            if !driver.submit(.read(readerID: id, continuation)) {
                continuation.resume(throwing: AMQPError(code: .closed, message: "the connection was closed by the application"))
            }
        }
    }

    /// Sends the acks of the messages settled so far, hands every message still unsettled back to the
    /// broker (basic.nack with requeue) and closes the channel. Returns once the broker confirmed the
    /// close, and so has applied the acks.
    public func close() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            if !driver.submit(.closeReader(id, continuation)) { continuation.resume() }
        }
    }
}
