public import RabbitMQ

/// What an operator does with the dead-letter queue: look into it, send its messages back to the
/// worker once the cause is fixed, or remove them.
///
/// Every operation reads the queue from its head (basic.get), up to the number of messages it held
/// when the operation began, so that what is dead-lettered meanwhile (a replay that failed again)
/// waits for the next operation. A message read stays in the queue unless the operation removes it
/// with an ack (in its place on a classic queue, see ``keepsPositions()``), and a replayed one is
/// removed only after the broker confirmed its copy. So an operation interrupted at any point loses
/// nothing: at worst a message replayed just before is still dead-lettered, and replaying it again
/// makes the worker, which handles a `message_id` once, only publish its result again. Run one
/// operation at a time: what one holds, another does not see.
public struct DeadLetterQueue: Sendable {
    private let connection: AMQPConnection
    private let configuration: MessagingConfiguration

    public init(connection: AMQPConnection, configuration: MessagingConfiguration) {
        self.connection = connection
        self.configuration = configuration
    }

    /// The queue's name (`checkout.dead-letter`).
    public var name: String { configuration.deadLetter }

    /// Passes the first `limit` dead letters (all when nil), in queue order, to `each`; removes none.
    /// Returns how many the queue held when the listing began.
    @discardableResult
    public func list(limit: Int? = nil, _ each: (DeadLetter) async throws -> Void) async throws -> Int {
        try await read(upTo: limit, each)
    }

    /// Whether a position names the same dead letter from one operation to the next; nil when the broker
    /// would not say. A classic queue puts a message handed back in its place; RabbitMQ 3 puts one handed
    /// back to a quorum queue behind the others, so there a read that stops early moves what it read to
    /// the tail. Only a queue that RabbitMQ confirms is classic is taken to keep them.
    public func keepsPositions() async throws -> Bool? {
        try await connection.queueMatches(.init(name: name, arguments: ["x-queue-type": .string(QueueType.classic.rawValue)]))
    }

    /// The selected dead letters, in queue order; removes none.
    public func find(_ selection: DeadLetterSelection) async throws -> [DeadLetter] {
        try await refuseMovingPositions(selection)
        var found: [DeadLetter] = []
        _ = try await read(upTo: selection.lastPosition) { letter in
            if selection.selects(letter) { found.append(letter) }
        }
        return found
    }

    /// Publishes each selected dead letter to the commands exchange as the client sent it (see
    /// ``DeadLetter/replay(to:)``), mandatory and confirmed, and removes it once confirmed.
    ///
    /// A dead letter without a `message_id` is kept (the worker would dead-letter it again), and so are
    /// one whose routing key reaches no queue and one that cannot be published at all (properties that
    /// no longer fit a frame). Any other failure to publish stops the replay, leaving that dead letter
    /// and those after it in the queue. With `dryRun` nothing is published or removed.
    public func replay(
        _ selection: DeadLetterSelection, dryRun: Bool = false, _ report: (DeadLetterReplayOutcome) async throws -> Void
    ) async throws {
        try await refuseMovingPositions(selection)
        var replayed: [ReplayedCommand: Int] = [:]
        _ = try await read(upTo: selection.lastPosition) { letter in
            guard selection.selects(letter) else { return }
            guard let messageID = letter.messageID else {
                return try await report(.kept(letter, because: "it has no message_id, so the worker would dead-letter it again; purge it"))
            }
            let command = ReplayedCommand(routingKey: letter.routingKey, messageID: messageID, body: letter.delivery.body)
            if let original = replayed[command] {
                if !dryRun { letter.delivery.ack() }
                return try await report(.duplicate(letter, of: original))
            }
            if !dryRun {
                do {
                    try await connection.publish(letter.replay(to: configuration.commandsExchange))
                } catch let error as AMQPError where error.code == .unroutable {
                    return try await report(
                        .kept(
                            letter,
                            because: "no queue is bound to \(configuration.commandsExchange) with routing key '\(letter.routingKey)'"))
                } catch let error as AMQPError where error.code == .protocolError {
                    return try await report(.kept(letter, because: "it cannot be published: \(error.message)"))
                }
                letter.delivery.ack()
            }
            replayed[command] = letter.position
            try await report(.replayed(letter))
        }
    }

    /// Removes the selected dead letters, passing each to `removed` (all at once for ``DeadLetterSelection/all``,
    /// which passes none); returns how many were removed.
    public func purge(_ selection: DeadLetterSelection, _ removed: (DeadLetter) async throws -> Void = { _ in }) async throws -> Int {
        if selection == .all { return try await connection.purgeQueue(name) }
        try await refuseMovingPositions(selection)
        var count = 0
        _ = try await read(upTo: selection.lastPosition) { letter in
            guard selection.selects(letter) else { return }
            letter.delivery.ack()
            count += 1
            try await removed(letter)
        }
        return count
    }

    /// Why a position may name another dead letter at the next operation; nil when it does not.
    public func whyPositionsMove() async throws -> DeadLetterQueueError? {
        switch try await keepsPositions() {
        case true: nil
        case false: DeadLetterQueueError(code: .positionsMove, queue: name)
        case nil: DeadLetterQueueError(code: .positionsUnknown, queue: name)
        }
    }

    private func refuseMovingPositions(_ selection: DeadLetterSelection) async throws {
        if selection.namesPositions, let refusal = try await whyPositionsMove() { throw refusal }
    }

    /// Reads the queue from its head, at most `limit` messages and no more than it held at the start,
    /// then closes the reader: the acks are applied, everything else goes back to the queue.
    /// Returns how many messages the queue held at the start.
    private func read(upTo limit: Int?, _ visit: (DeadLetter) async throws -> Void) async throws -> Int {
        let reader = try await connection.openReader(queue: name)
        var held = 0
        do {
            var position = 0
            var end = limit ?? .max
            while position < end, let message = try await reader.next() {
                position += 1
                if position == 1 {
                    held = message.remaining + 1
                    end = min(end, held)
                }
                try await visit(DeadLetter(position: position, delivery: message.delivery))
            }
        } catch {
            try? await reader.close()
            throw error
        }
        try await reader.close()
        return held
    }
}

/// What makes two dead letters the same command for a replay.
private struct ReplayedCommand: Hashable {
    let routingKey: String
    let messageID: String
    let body: [UInt8]
}
