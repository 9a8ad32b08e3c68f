/// Why the dead-letter queue refused an operation before reading anything.
public struct DeadLetterQueueError: Error, Sendable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let description: String

        /// Positions were named, and the queue moves what is read (see ``DeadLetterQueue/keepsPositions()``).
        public static let positionsMove = Code(description: "positions-move")
        /// Positions were named, and the broker would not say whether the queue keeps them.
        public static let positionsUnknown = Code(description: "positions-unknown")
    }

    public let code: Code
    public let queue: String

    public init(code: Code, queue: String) {
        self.code = code
        self.queue = queue
    }

    public var description: String {
        let instead = "name dead letters by message_id, or select them by reason"
        return switch code {
        case .positionsMove:
            "\(queue) is not a classic queue: RabbitMQ puts a message read and handed back behind the others, so a position "
                + "names another dead letter at each read; \(instead)"
        case .positionsUnknown:
            "cannot tell whether positions in \(queue) hold, as they do only in a classic queue: the check is a declare, "
                + "and this user may not configure the queue; \(instead)"
        default:
            "\(queue): \(code)"
        }
    }
}
