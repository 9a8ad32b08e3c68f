/// Why the dead-letter queue refused an operation before reading anything.
public enum DeadLetterQueueError: Error, Sendable, CustomStringConvertible {
    /// Positions were named, and the queue does not keep them (see ``DeadLetterQueue/keepsPositions()``).
    case positionsMove(queue: String)

    public var description: String {
        switch self {
        case .positionsMove(let queue):
            "\(queue) is not a classic queue: RabbitMQ puts a message read and handed back behind the others, so a position "
                + "names another dead letter at each read; name dead letters by message_id, or select them by reason"
        }
    }
}
